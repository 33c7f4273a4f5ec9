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
