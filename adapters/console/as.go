package console

import (
	"strings"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
)

// reserved reports whether name is one that /as refuses: a name the bot
// gives the AI ("AI", "AI (hard)", "AI（困难）"), in any language, case or
// width, so that nobody types as the AI.
func reserved(name string) bool {
	n := fold(name)
	for _, l := range render.Langs {
		ai, _, _ := strings.Cut(fold(render.T(l, render.MsgAI, "")), "(")
		if n == ai {
			return true
		}
		for _, lv := range engine.AllLevels {
			if n == fold(render.T(l, render.MsgAI, render.LevelName(l, lv))) {
				return true
			}
		}
	}
	return false
}

// fold returns s as names are compared: ASCII width, lower case, without
// spaces.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(adapters.FoldWidth(s))), "")
}
