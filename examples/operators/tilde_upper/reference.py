class Version:
    def __init__(self, major, minor, patch):
        self.major, self.minor, self.patch = major, minor, patch

    def next_major(self):
        return Version(self.major + 1, 0, 0)

    def next_minor(self):
        return Version(self.major, self.minor + 1, 0)

    def next_patch(self):
        return Version(self.major, self.minor, self.patch + 1)

    def parts(self):
        return [self.major, self.minor, self.patch]


def tilde_upper(text):
    """The version text names, its next patch release and the exclusive
    upper bound of ~text: ~1 is below 2.0.0, ~1.2 and ~1.2.3 below 1.3.0."""
    nums = [int(x) for x in text.split(".")]
    v = Version(*(nums + [0, 0])[:3])
    release = v.next_patch().parts()
    if len(nums) == 1:
        return [v.parts(), release, v.next_major().parts()]
    return [v.parts(), release, v.next_minor().parts()]
