package session

import (
	"bytes"
	"testing"
)

// TestSecretIsMadeOnceAndShared asks two Services on one store (bbolt:
// the same one twice) for a secret: both get the same random one, and
// another name gets another.
func TestSecretIsMadeOnceAndShared(t *testing.T) {
	onEveryStore(t, func(t *testing.T, _ *clock, one, two *Service) {
		if two == nil {
			two = one
		}
		a, err := one.Secret(ctx, "web")
		if err != nil {
			t.Fatal(err)
		}
		b, err := two.Secret(ctx, "web")
		if err != nil {
			t.Fatal(err)
		}
		c, err := one.Secret(ctx, "other")
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != secretSize || !bytes.Equal(a, b) || bytes.Equal(a, c) || bytes.Equal(a, make([]byte, secretSize)) {
			t.Errorf("secrets %x, %x, %x: want one random secret per name", a, b, c)
		}
	})
}
