package adapters

import "strings"

// FoldWidth returns s with the full-width forms that Chinese input methods
// type in place of ASCII (U+FF01–U+FF5E, such as "／ｐｌａｙ" or "ｂ２") made
// the ASCII they stand for, and the ideographic space (U+3000) a space;
// everything else is left as it is.
func FoldWidth(s string) string {
	if !strings.ContainsFunc(s, isFullWidth) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u3000':
			return ' '
		case isFullWidth(r):
			return r - 0xFEE0
		}
		return r
	}, s)
}

// isFullWidth reports whether r is a full-width form of ASCII or the
// ideographic space.
func isFullWidth(r rune) bool { return (r >= '\uFF01' && r <= '\uFF5E') || r == '\u3000' }
