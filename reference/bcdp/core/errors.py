"""The one exception hierarchy of bcdp, and its mapping to command-line exit codes.

Every error the library raises on purpose is a :class:`BcdpError`.  The classes say what went wrong,
not which paper's code noticed it:

* :class:`InvalidInputError` (also a ``ValueError``): an input that is not what it claims to be (a
  kernel row that does not sum to 1, a probability outside [0, 1], a NaN, a size over a cap).  The
  message names the offending entry.
* :class:`WrongTypeError` (also a ``TypeError``): an input of the wrong type (a bool as a number).
* :class:`FloatRefusedError` (a :class:`WrongTypeError`): a float reached a function that computes exactly;
  pass ``"0.1"``, ``"1/10"``, ``Fraction(1, 10)`` or a sympy Rational instead, or call the function's
  float twin (named ``*_float``).
* :class:`ValidityConditionError`: the parameters are valid numbers but outside the range where the
  cited theorem is proved; the message names the condition and the paper, section and equation.
* :class:`InputFileError`: a JSON input file (audits) that cannot be read or does not follow
  ``docs/file_format.md``; the message names the key, row or entry.
* :class:`CertificationError` (also an ``ArithmeticError``): interval arithmetic could not certify a
  result at the highest precision tried; :class:`UndecidedComparison` is the case of a comparison
  whose two sides are equal or closer than the enclosures can separate.  A certified function raises
  (or returns "undecided") instead of guessing.

Exit codes of the ``bcdp`` command (:func:`exit_code`): 0 success, 1 a check or comparison failed
(decided by the command, not by an exception), 2 bad input (every :class:`BcdpError`), 3 an
internal error (any other exception: a bug to report).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 3


class BcdpError(Exception):
    """Base class of every error bcdp raises on purpose."""

    exit_code = EXIT_BAD_INPUT


class InvalidInputError(BcdpError, ValueError):
    """An input that is not what it claims to be; the message names the entry."""


class WrongTypeError(InvalidInputError, TypeError):
    """An input of a type the function does not take (a bool, a list where a number belongs...)."""


class FloatRefusedError(WrongTypeError):
    """A float reached an exact function (floats are ambiguous: pass a string or a Fraction)."""


class ValidityConditionError(InvalidInputError):
    """Parameters outside the range where the cited theorem is proved (the condition is named)."""


class InputFileError(InvalidInputError):
    """An input file that cannot be read or does not follow its documented format."""


class CertificationError(BcdpError, ArithmeticError):
    """A result could not be certified by interval arithmetic at the highest precision tried."""


class UndecidedComparison(CertificationError):
    """The sign of a difference could not be certified: the two sides are equal or too close."""


def exit_code(exc: BaseException) -> int:
    """The ``bcdp`` exit code for an exception: 2 for a :class:`BcdpError`, 3 otherwise."""
    if isinstance(exc, BcdpError):
        return exc.exit_code
    return EXIT_INTERNAL_ERROR


__all__ = [
    "BcdpError", "CertificationError", "EXIT_BAD_INPUT", "EXIT_CHECK_FAILED", "EXIT_INTERNAL_ERROR",
    "EXIT_OK", "FloatRefusedError", "InputFileError", "InvalidInputError", "UndecidedComparison",
    "ValidityConditionError", "WrongTypeError", "exit_code",
]
