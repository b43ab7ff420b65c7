"""The total-variation rule names its bad input exactly: the message starts with "delta: "."""

import pytest
from bcdp.accounting.curves import zcdp_rdp
from bcdp.accounting.tightest import tv_rule_certified
from bcdp.core.errors import InvalidInputError


def test_bad_delta_message_names_delta():
    with pytest.raises(InvalidInputError, match=r"^delta: "):
        tv_rule_certified(zcdp_rdp("1e-6"), 2.0, "abc")
