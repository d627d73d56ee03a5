def tabbed(xs):
	result = []
	for x in xs:
		if x > 0:
			result.append(x)
		else:
			continue
	return result


def count(xs):
	n = 0
	while n < len(xs):
		n += 1
	return n
