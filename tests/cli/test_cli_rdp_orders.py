"""`bcdp rdp to-dp --orders`: fractional orders and dp_accounting's default orders.

With ``--orders dp-accounting`` the certified eps of a bound equals what dp_accounting's own
``compute_epsilon`` (CKS, the rule it uses) gives on the same orders for the certified upper ends of
that bound (computed here independently of the CLI by ``upper_bound_ball`` at each exact order),
rounded up: within 1e-9 relative and never below.  Fractional orders are used at their exact float
value; a bound defined at integer orders only refuses them; repeated orders count once.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from bcdp.cli import main
from bcdp.core.intervals import arb_precision, ball_upper, float_up
from bcdp.shuffle.bound_balls import upper_bound_ball
from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS, compute_epsilon


def _run(capsys, *args):
    code = main(["rdp", "to-dp", *args, "--json"])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out else None), captured.err


@pytest.mark.parametrize("n,eps0,delta", [(1000, "1", 1e-6), (10 ** 5, "0.5", 1e-8)])
def test_dp_accounting_orders_match_compute_epsilon(capsys, n, eps0, delta):
    code, out, err = _run(capsys, "--n", str(n), "--eps0", eps0, "--delta", repr(delta), "--bound", "thm5.3.1",
                          "--orders", "dp-accounting")
    assert code == 0, err
    orders = [float(a) for a in DEFAULT_RDP_ORDERS]
    with arb_precision(200):
        rdp = [float_up(ball_upper(upper_bound_ball("thm531_upper", n, eps0, Fraction(a)))) for a in orders]
    peer, _ = compute_epsilon(orders, rdp, delta)
    assert peer <= out["epsilon"] <= peer * (1 + 1e-9)
    assert out["alpha_star"] in orders


def test_fractional_orders(capsys):
    code, out, err = _run(capsys, "--n", "30", "--eps0", "1", "--delta", "1e-6", "--exact", "--orders", "2.5,1.5,2.5")
    assert code == 0, err
    assert out["alpha_star"] in (1.5, 2.5)
    code, out, err = _run(capsys, "--n", "1000", "--eps0", "0.1", "--delta", "1e-6", "--bound", "cor5.3.1",
                          "--orders", "1.5,2")
    assert code == 2 and "integer orders" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("orders", ["1", "0.5,2", "2,,3", "", "nan", "inf"])
def test_bad_orders(capsys, orders):
    code, _, err = _run(capsys, "--n", "1000", "--eps0", "1", "--delta", "1e-6", "--bound", "thm5.3.1",
                        "--orders", orders)
    assert code == 2 and len(err.strip().splitlines()) == 1
