import pytest

from inventory import Inventory, OutOfStock


@pytest.fixture
def stocked():
    inv = Inventory()
    inv.add("apple", 5)
    inv.add("pear", 2)
    inv.add("apple")
    return inv


class TestInventory:
    def test_counts(self, stocked):
        assert stocked.count("apple") == 6
        assert stocked.count("pear") == 2
        assert stocked.count("plum") == 0

    def test_remove_some(self, stocked):
        stocked.remove("apple", 4)
        assert stocked.snapshot() == {"apple": 2, "pear": 2}

    def test_remove_all_drops_name(self, stocked):
        stocked.remove("pear", 2)
        assert stocked.names() == {"apple"}

    def test_out_of_stock(self, stocked):
        with pytest.raises(OutOfStock):
            stocked.remove("pear", 3)
        assert stocked.count("pear") == 2

    def test_unknown_item(self, stocked):
        with pytest.raises(OutOfStock):
            stocked.remove("kiwi")


@pytest.mark.parametrize("qty", [0, -3])
def test_bad_quantity(qty):
    with pytest.raises(ValueError):
        Inventory().add("apple", qty)


def test_out_of_stock_is_an_exception():
    assert issubclass(OutOfStock, Exception)
    assert not issubclass(OutOfStock, ValueError)


def test_snapshot_is_a_copy(stocked):
    snap = stocked.snapshot()
    snap["apple"] = 100
    assert stocked.count("apple") == 6
