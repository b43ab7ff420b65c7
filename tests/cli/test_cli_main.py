"""``bcdp.cli.main``: one module per subcommand, and the one place exceptions become exit codes."""

import json

import pytest
from bcdp.cli import main
from bcdp.cli.main import COMMANDS, build_parser
from bcdp.core.errors import InvalidInputError, ValidityConditionError


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_subcommand_module_has_the_interface():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert list(sub.choices) == list(COMMANDS)
    for name, module in COMMANDS.items():
        assert module.__name__ == f"bcdp.cli.{name.replace('-', '_')}"      # audit-sampler -> audit_sampler
        assert callable(module.add_parser) and callable(module.run)
        assert isinstance(module.BAD_INPUT, tuple)


def test_version(capsys):
    import bcdp

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"bcdp {bcdp.__version__}"


def test_bcdp_error_is_exit_2_one_line_and_a_json_error_under_json(capsys, monkeypatch):
    def boom(args):
        raise ValidityConditionError("rho outside the range of\nProp. 1.3")

    monkeypatch.setattr(COMMANDS["zcdp"], "run", boom)
    code, out, err = run(capsys, "zcdp", "to-dp", "--rho", "1", "--delta", "1e-6", "--json")
    assert code == 2
    assert err == "bcdp zcdp to-dp: rho outside the range of Prop. 1.3\n"
    assert json.loads(out) == {"error": {"type": "ValidityConditionError",
                                         "message": "rho outside the range of Prop. 1.3"}, "exit_code": 2}
    code, out, err = run(capsys, "zcdp", "to-dp", "--rho", "1", "--delta", "1e-6")
    assert (code, out) == (2, "")


def test_unexpected_exception_is_exit_3_with_json_error(capsys, monkeypatch):
    def boom(args):
        raise KeyError("oops")

    monkeypatch.setattr(COMMANDS["audit"], "run", boom)
    code, out, err = run(capsys, "audit", "x.json", "--json")
    assert code == 3
    assert err.startswith("bcdp audit: internal error (KeyError): 'oops' (a bug in bcdp: please report it")
    assert err.count("\n") == 1
    assert json.loads(out) == {"error": {"type": "KeyError", "message": "internal error (KeyError): 'oops'"},
                               "exit_code": 3}
    code, out, err = run(capsys, "audit", "x.json")
    assert code == 3 and out == "" and err.count("\n") == 1


def test_builtin_exceptions_are_bad_input_only_where_declared(capsys, monkeypatch):
    def boom(args):
        raise ValueError("q = 13/10 must lie in [0, 1]")

    # no command declares ValueError any more (zcdp and rdp read their arguments through
    # bcdp.core.numbers): a ValueError is a bug, exit 3
    monkeypatch.setattr(COMMANDS["zcdp"], "run", boom)
    assert run(capsys, "zcdp", "to-dp", "--rho", "1", "--delta", "1e-6")[0] == 3
    # allocate no longer does (the library raises InvalidInputError): a ValueError is a bug, exit 3
    monkeypatch.setattr(COMMANDS["allocate"], "run", boom)
    assert run(capsys, "allocate", "--delta", "1", "--eps", "1", "--q", "1")[0] == 3
    # audit does not: a ValueError there is a bug, exit 3
    monkeypatch.setattr(COMMANDS["audit"], "run", boom)
    assert run(capsys, "audit", "x.json")[0] == 3


def test_tables_bad_input_messages(capsys, tmp_path):
    code, out, err = run(capsys, "tables", "nope", "--out", str(tmp_path))
    assert code == 2 and out == "" and err.startswith("bcdp tables: unknown table(s) ['nope']; known: paper_examples")
    assert run(capsys, "tables", "--trials", "0", "--out", str(tmp_path)) == (
        2, "", "bcdp tables: --trials must be >= 1\n")
    assert not list(tmp_path.iterdir())


def test_rdp_messages_unchanged(capsys):
    assert run(capsys, "rdp", "shuffle", "--n", "0", "--eps0", "1", "--alpha", "2") == (
        2, "", "bcdp rdp shuffle: n must be >= 1\n")
    assert run(capsys, "rdp", "shuffle", "--n", "10", "--eps0", "abc", "--alpha", "2") == (
        2, "", "bcdp rdp shuffle: eps0: cannot read 'abc' as a number\n")
    assert run(capsys, "rdp", "to-dp", "--n", "100", "--eps0", "1", "--delta", "1e-6", "--bound", "lower5.3.3") == (
        2, "", "bcdp rdp to-dp: a lower bound cannot be converted to an (eps, delta) guarantee\n")


def test_subcommand_errors_are_invalid_input():
    from bcdp.cli.rdp import parse_alphas, resolve_bound

    with pytest.raises(InvalidInputError, match="alpha must be a finite number > 1"):
        parse_alphas("2,inf")
    with pytest.raises(InvalidInputError, match="unknown bound"):
        resolve_bound("nope")
    assert parse_alphas("2,4.5") == [2.0, 4.5]
