import sys


def main():
    data = sys.stdin.read().split()
    nums = [int(t) for t in data]
    nums.sort()
    lo, hi = nums[0], nums[-1]
    print(lo, hi)
    print(sum(nums) / len(nums))


if __name__ == "__main__":
    main()
