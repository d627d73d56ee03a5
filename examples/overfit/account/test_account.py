from account import Account


def test_two_deposits():
    a = Account()
    a.deposit(10)
    a.deposit(25)
    assert a.last_deposit() == 25


def test_one_deposit():
    a = Account(5)
    a.deposit(7)
    assert a.last_deposit() == 7
    assert a.balance == 12
