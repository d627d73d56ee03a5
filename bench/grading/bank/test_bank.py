import pytest

from bank import Account, InsufficientFunds


@pytest.fixture
def alice():
    return Account("alice", 100)


@pytest.fixture
def bob():
    return Account("bob")


class TestAccount:
    def test_opening(self, alice, bob):
        assert (alice.owner, alice.balance) == ("alice", 100)
        assert bob.balance == 0

    def test_deposit_returns_balance(self, bob):
        assert bob.deposit(30) == 30
        assert bob.deposit(12) == 42

    def test_withdraw(self, alice):
        assert alice.withdraw(100) == 0

    def test_history(self, alice):
        alice.deposit(5)
        alice.withdraw(20)
        assert alice.history == [("deposit", 5), ("withdraw", 20)]

    @pytest.mark.parametrize("amount", [0, -5])
    def test_bad_amounts(self, alice, amount):
        with pytest.raises(ValueError):
            alice.deposit(amount)
        with pytest.raises(ValueError):
            alice.withdraw(amount)


def test_overdraw(alice):
    with pytest.raises(InsufficientFunds) as info:
        alice.withdraw(150)
    assert info.value.amount == 150
    assert info.value.balance == 100
    assert alice.balance == 100


def test_transfer(alice, bob):
    alice.transfer(bob, 60)
    assert (alice.balance, bob.balance) == (40, 60)


def test_failed_transfer_changes_nothing(alice, bob):
    with pytest.raises(InsufficientFunds):
        bob.transfer(alice, 1)
    assert (alice.balance, bob.balance) == (100, 0)


def test_negative_opening():
    with pytest.raises(ValueError):
        Account("eve", -1)
