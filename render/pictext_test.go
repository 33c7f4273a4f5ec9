package render

import "testing"

// TestPictureFontWritesChinese checks that the pictures' font has every
// letter of the messages that pictures write, in every language: a
// missing one calls for fonts/subset.sh.
func TestPictureFontWritesChinese(t *testing.T) {
	for _, k := range []Key{
		// The chart's.
		MsgChartAxis, MsgStatsLine, MsgAI, MsgGameTicTacToe, MsgFamilyNxN, MsgFamilyGomoku, MsgFamilyRenju,
		MsgLevelEasy, MsgLevelMedium, MsgLevelHard, MsgLevelAdaptive, MsgAdaptiveAt, MsgStatsVsAI,
		// The replay's result.
		MsgWins, MsgWinsLine, MsgWinsOverline, MsgDraw, MsgResigned, MsgExpired, MsgOutOfTime, MsgAborted, MsgPlayer, MsgNumbers,
	} {
		for _, l := range Langs {
			if s := catalog[k][l]; !canDraw(s) {
				for _, r := range s {
					if !canDraw(string(r)) {
						t.Errorf("%s in %s: the pictures' font has no %q", k, l, r)
					}
				}
			}
		}
	}
	if !canDraw(textStones) {
		t.Errorf("the pictures' font has no stones %q", textStones)
	}
}
