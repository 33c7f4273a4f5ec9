package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestConfigReferenceMatchesTheExample checks that docs/configuration.md,
// the configuration reference, names the same keys as
// config.example.yaml, and only environment variables the bot reads.
//
// The keys of the example are its YAML leaves as dotted paths (a mapping
// is a section, anything else, a list included, is a key), such as
// telegram.webhook.listen. Commented-out keys are not read: the
// example's convention is to write every key out with its default value,
// and its comments are prose (some of which, wrapped, look like
// "# token: …", so comments cannot be told apart from keys by their
// shape). Instead, a key commented out in the example is caught as
// missing from it: the test also compares the example's keys with the
// keys the bot accepts, the yaml tags of Config, section by section. A
// key added to Config and to neither file fails the same way.
//
// The keys of the reference are the first cells of its table rows that
// hold one backquoted dotted name, such as | `web.listen` | … |.
//
// The environment variables of the reference are its backquoted names
// such as `BOT_DB`: each must be a quoted string in this package's
// source (its .go files, not the tests), so that a renamed variable
// fails here. And each BOT_, TELEGRAM_ or DISCORD_ string of the source
// must be in the reference, so that a new one gets documented.
func TestConfigReferenceMatchesTheExample(t *testing.T) {
	example, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reference, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}

	var doc yaml.Node
	if err := yaml.Unmarshal(example, &doc); err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	if len(doc.Content) == 0 {
		t.Fatal("config.example.yaml has no keys")
	}
	var inExample []string
	var flatten func(prefix string, n *yaml.Node)
	flatten = func(prefix string, n *yaml.Node) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := prefix+n.Content[i].Value, n.Content[i+1]
			if value.Kind == yaml.MappingNode {
				flatten(key+".", value)
				continue
			}
			inExample = append(inExample, key)
		}
	}
	flatten("", doc.Content[0])

	// The keys the bot accepts: the yaml tags of Config, a struct being a
	// section (a duration is an integer, a leaf).
	var accepted []string
	var fields func(prefix string, t reflect.Type)
	fields = func(prefix string, t reflect.Type) {
		for i := range t.NumField() {
			tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			if ft := t.Field(i).Type; ft.Kind() == reflect.Struct {
				fields(prefix+tag+".", ft)
				continue
			}
			accepted = append(accepted, prefix+tag)
		}
	}
	fields("", reflect.TypeFor[Config]())
	sameKeys(t, accepted, "the bot's keys (Config)", inExample, "config.example.yaml (commented out?)")

	keyCell := regexp.MustCompile("^`([a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)*)`$")
	var inReference []string
	for _, line := range strings.Split(string(reference), "\n") {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) < 3 || cells[0] != "" {
			continue // not a table row
		}
		if m := keyCell.FindStringSubmatch(strings.TrimSpace(cells[1])); m != nil {
			if slices.Contains(inReference, m[1]) {
				t.Errorf("docs/configuration.md lists %s twice", m[1])
			}
			inReference = append(inReference, m[1])
		}
	}
	if len(inExample) < 40 || len(inReference) < 40 {
		t.Fatalf("found %d keys in config.example.yaml and %d in docs/configuration.md; is the parsing broken?", len(inExample), len(inReference))
	}
	sameKeys(t, inExample, "config.example.yaml", inReference, "the tables of docs/configuration.md")

	// The package's source, without its tests.
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var source strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		source.Write(b)
	}
	src := source.String()
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`").FindAllStringSubmatch(string(reference), -1) {
		documented[m[1]] = true
		if !strings.Contains(src, `"`+m[1]+`"`) {
			t.Errorf("docs/configuration.md names the environment variable %s, which cmd/bot does not read", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`"((?:BOT|TELEGRAM|DISCORD)_[A-Z0-9_]+)"`).FindAllStringSubmatch(src, -1) {
		if !documented[m[1]] {
			t.Errorf("cmd/bot reads the environment variable %s, which docs/configuration.md does not name", m[1])
			documented[m[1]] = true // once
		}
	}
}

// sameKeys reports each key of a (named aName) that b (bName) lacks, and
// each of b that a lacks.
func sameKeys(t *testing.T, a []string, aName string, b []string, bName string) {
	t.Helper()
	for _, k := range a {
		if !slices.Contains(b, k) {
			t.Errorf("%s is in %s but not in %s", k, aName, bName)
		}
	}
	for _, k := range b {
		if !slices.Contains(a, k) {
			t.Errorf("%s is in %s but not in %s", k, bName, aName)
		}
	}
}
