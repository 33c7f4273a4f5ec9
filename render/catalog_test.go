package render

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// declaredKeys returns the names and values of every constant of type Key
// declared in the package's non-test files.
func declaredKeys(t *testing.T) map[string]Key {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]Key{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Key" {
					continue
				}
				for i, n := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: key %s is not a literal", name, n.Name)
					}
					keys[n.Name] = Key(lit.Value[1 : len(lit.Value)-1])
				}
			}
		}
	}
	return keys
}

func TestEveryDeclaredKeyHasEveryLanguage(t *testing.T) {
	keys := declaredKeys(t)
	if len(keys) < 30 {
		t.Fatalf("found only %d keys: the parser missed them", len(keys))
	}
	for name, k := range keys {
		for _, l := range Langs {
			if catalog[k][l] == "" {
				t.Errorf("%s (%q) has no %s text", name, k, l)
			}
		}
	}
	declared := slices.Collect(maps.Values(keys))
	for k := range catalog {
		if !slices.Contains(declared, k) {
			t.Errorf("catalog entry %q has no Key constant", k)
		}
	}
}

// verbs matches the formatting verbs of a message.
var verbs = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

func TestTranslationsTakeTheSameArguments(t *testing.T) {
	for k, m := range catalog {
		want := verbs.FindAllString(m[English], -1)
		for _, l := range Langs {
			if got := verbs.FindAllString(m[l], -1); !slices.Equal(got, want) {
				t.Errorf("%q in %s has verbs %v, English %v", k, l, got, want)
			}
		}
	}
}

func TestEverySessionRefusalHasAMessage(t *testing.T) {
	// ErrSchema and ErrLocked are faults, not refusals: the generic
	// apology is right for them.
	_, badCoord := ParseCoord("z99", engine.TicTacToe())
	for _, err := range []error{
		session.ErrNotFound, session.ErrGameOver, session.ErrNotAPlayer, session.ErrNotYourTurn,
		session.ErrStale, session.ErrOffBoard, session.ErrCellTaken, session.ErrAlreadyPlaying,
		session.ErrBusy, session.ErrUserGames, session.ErrChatGames, session.ErrCooldown,
		session.ErrBadRequest, session.ErrConflict, engine.ErrBadRules, badCoord,
	} {
		for _, l := range Langs {
			msg := ErrorText(l, fmt.Errorf("wrapped: %w", err))
			if msg == T(l, MsgInternal) || strings.Contains(msg, "\n") || strings.Contains(msg, "render:") {
				t.Errorf("%v in %s: %q", err, l, msg)
			}
		}
	}
}

// badGrammar matches what a message must never say when a name is "you"
// (the terminal's user) or a count is 1: a third-person verb or a
// possessive after "you", and a plural noun after 1.
var badGrammar = regexp.MustCompile(`\byou('s| (is|has|was|does|[a-z]+[^s\W]s)\b)|(^|[^\d.])1 ([a-z]+[^s\W]s)\b|1 局对战`)

// fill formats message m with "you" for every name and 1 for every count.
func fill(m, you string) string {
	args := []any{}
	for _, v := range verbs.FindAllString(m, -1) {
		switch v[len(v)-1] {
		case 'd':
			args = append(args, 1)
		case '%':
		default:
			args = append(args, you)
		}
	}
	return fmt.Sprintf(m, args...)
}

func TestEveryMessageReadsRightForYouAndOne(t *testing.T) {
	keys := declaredKeys(t)
	for name, k := range keys {
		for _, l := range Langs {
			you := T(l, MsgYou)
			got := fill(catalog[k][l], you)
			if strings.Contains(got, "%!") {
				t.Errorf("%s in %s: %q", name, l, got)
			}
			if m := badGrammar.FindString(got); m != "" {
				t.Errorf("%s in %s reads %q: %q", name, l, m, got)
			}
		}
	}
	// The status lines, as they are put together.
	for _, l := range Langs {
		you := T(l, MsgYou)
		for _, got := range []string{T(l, MsgWinsLine, you, Number(l, 3)), sentences(l, T(l, MsgResigned, you), T(l, MsgWins, you))} {
			if m := badGrammar.FindString(got); m != "" {
				t.Errorf("%s reads %q: %q", l, m, got)
			}
		}
	}
}

func TestGameNamesSayTheBoardKAndTheRule(t *testing.T) {
	for _, tt := range []struct {
		r      engine.Rules
		en, zh string
	}{
		{engine.TicTacToe(), "Tic-tac-toe", "井字棋"},
		{engine.Rules{Width: 4, Height: 4, K: 4}, "4×4, four in a row", "4×4 四连"},
		{engine.Rules{Width: 15, Height: 15, K: 5}, "Gomoku 15×15", "五子棋 15×15"},
		{engine.Rules{Width: 15, Height: 15, K: 5, Exact: true}, "15×15, exactly five in a row", "15×15 恰好五连"},
		{engine.Rules{Width: 6, Height: 4, K: 4}, "6×4, four in a row", "6×4 四连"},
		{engine.Rules{Width: 7, Height: 7, K: 4, Exact: true}, "7×7, exactly four in a row", "7×7 恰好四连"},
		{engine.Rules{Width: 19, Height: 19, K: 19}, "19×19, nineteen in a row", "19×19 十九连"},
	} {
		if got := GameName(English, tt.r); got != tt.en {
			t.Errorf("%v: %q, want %q", tt.r, got, tt.en)
		}
		if got := GameName(Chinese, tt.r); got != tt.zh {
			t.Errorf("%v: %q, want %q", tt.r, got, tt.zh)
		}
	}
	for _, lv := range engine.Levels {
		if LevelName(Chinese, lv) == lv.String() || LevelName(English, lv) != lv.String() {
			t.Errorf("level %s: %q, %q", lv, LevelName(English, lv), LevelName(Chinese, lv))
		}
	}
}

func TestEveryBoardHeaderNamesItsGame(t *testing.T) {
	svc, _ := fixtureStore(t)
	who := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "1", Name: "you"}}
	v, err := svc.Begin(t.Context(), session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.Rules{Width: 6, Height: 4, K: 4}, Level: engine.Easy})
	if err != nil {
		t.Fatal(err)
	}
	for l, want := range map[Lang]string{English: "❌ you  vs  ⭕ AI (easy) · 6×4, four in a row", Chinese: "❌ you  对  ⭕ AI（简单） · 6×4 四连"} {
		if got, _, _ := strings.Cut(Text(v, l), "\n"); got != want {
			t.Errorf("%s header %q, want %q", l, got, want)
		}
	}
}

func TestJoinCatalogsRefusesAKeyDefinedTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a key in two parts was joined silently")
		}
	}()
	joinCatalogs(map[Key]map[Lang]string{MsgHelp: {English: "a"}}, map[Key]map[Lang]string{MsgHelp: {English: "b"}})
}
