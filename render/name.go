package render

import (
	"strings"
	"unicode"
)

// maxMarks caps the combining marks kept on one character, so that a
// name stacked with hundreds of them cannot spill over the lines around
// it.
const maxMarks = 2

// CleanName returns a person's name as it is safe to show anywhere: with
// no control characters (ANSI escapes included), no format characters
// (zero-width spaces, bidi overrides), no blank filler letters, runs of
// spaces folded into one, at most maxMarks combining marks on a
// character, and at most maxNameRunes characters. A zero-width joiner is
// kept only inside an emoji or script sequence, where it joins two
// visible characters. A name with nothing visible left is "".
func CleanName(name string) string {
	var out []rune
	marks := 0
	space := false
	rs := []rune(name)
	for _, r := range rs {
		switch {
		case r == zwj:
			if len(out) > 0 && !space {
				out = append(out, r)
			}
			continue
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			space = len(out) > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r),
			unicode.Is(unicode.Cs, r), filler(r), r == unicode.ReplacementChar:
			continue
		case unicode.In(r, unicode.Mn, unicode.Me):
			if len(out) == 0 || marks >= maxMarks {
				continue
			}
			marks++
			out = append(out, r)
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		marks = 0
		out = append(out, r)
	}
	out = joinersBetweenVisible(out)
	if !anyVisible(out) {
		return ""
	}
	if len(out) > maxNameRunes {
		out = append(joinersBetweenVisible(out[:maxNameRunes-1]), '…')
	}
	return strings.TrimSpace(string(out))
}

// zwj is the zero-width joiner, which glues emoji and script sequences.
const zwj = '\u200d'

// joinersBetweenVisible drops the joiners of rs that do not stand between
// a visible character (with its marks) and a visible character.
func joinersBetweenVisible(rs []rune) []rune {
	out := rs[:0:0]
	for i, r := range rs {
		if r == zwj && (len(out) == 0 || out[len(out)-1] == ' ' || out[len(out)-1] == zwj || i+1 >= len(rs) || !visible(rs[i+1])) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// filler reports whether r is a letter or symbol that draws nothing, the
// kind used to make a name look empty.
func filler(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800', '\u17b4', '\u17b5', '\u034f':
		return true
	}
	return false
}

// visible reports whether r draws something on its own.
func visible(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc) && r != zwj
}

// anyVisible reports whether any rune of rs draws something.
func anyVisible(rs []rune) bool {
	for _, r := range rs {
		if visible(r) {
			return true
		}
	}
	return false
}
