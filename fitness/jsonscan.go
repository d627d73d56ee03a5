// Splitting valid JSON without decoding it: a suite's objects and arrays
// are walked once by encoding/json (which checks the syntax) and then only
// split here, not decoded again token by token (which cost a 200-case
// suite's load most of its 2 ms, on every repair's critical path).

package fitness

import "encoding/json"

// scanFields splits a valid JSON object into its fields in order. ok is
// false on anything it does not expect (then decode it to report why).
func scanFields(raw []byte) (fs []field, ok bool) {
	i := skipJSONSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipJSONSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return nil, skipJSONSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		end, plain := scanString(raw, i)
		if end < 0 {
			return nil, false
		}
		var k string
		if !plain {
			if json.Unmarshal(raw[i:end], &k) != nil {
				return nil, false
			}
		} else {
			k = string(raw[i+1 : end-1])
		}
		i = skipJSONSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipJSONSpace(raw, i+1)
		vEnd := scanValue(raw, i)
		if vEnd < 0 {
			return nil, false
		}
		fs = append(fs, field{k, json.RawMessage(raw[i:vEnd])})
		if i = skipJSONSpace(raw, vEnd); i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case '}':
			return fs, skipJSONSpace(raw, i+1) == len(raw)
		case ',':
			i = skipJSONSpace(raw, i+1)
		default:
			return nil, false
		}
	}
}

// scanElems splits a valid JSON array into its elements, like scanFields.
func scanElems(raw []byte) (elems []json.RawMessage, ok bool) {
	i := skipJSONSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i = skipJSONSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return []json.RawMessage{}, skipJSONSpace(raw, i+1) == len(raw)
	}
	for {
		end := scanValue(raw, i)
		if end < 0 {
			return nil, false
		}
		elems = append(elems, json.RawMessage(raw[i:end]))
		if i = skipJSONSpace(raw, end); i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ']':
			return elems, skipJSONSpace(raw, i+1) == len(raw)
		case ',':
			i = skipJSONSpace(raw, i+1)
		default:
			return nil, false
		}
	}
}

// scanString returns the index after the string starting at raw[i] (a
// quote), and whether its bytes are its text (ASCII without escapes:
// else decode it, which also replaces invalid UTF-8); -1 if it does not
// end.
func scanString(raw []byte, i int) (end int, plain bool) {
	plain = true
	for j := i + 1; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '\\':
			plain = false
			j++
		case c == '"':
			return j + 1, plain
		case c >= 0x80:
			plain = false
		}
	}
	return -1, false
}

// scanValue returns the index after the value starting at raw[i], or -1.
func scanValue(raw []byte, i int) int {
	if i >= len(raw) {
		return -1
	}
	switch raw[i] {
	case '"':
		end, _ := scanString(raw, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(raw); j++ {
			switch raw[j] {
			case '"':
				end, _ := scanString(raw, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i // a number, true, false or null
	for j < len(raw) && !isJSONSpace(raw[j]) && raw[j] != ',' && raw[j] != '}' && raw[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
