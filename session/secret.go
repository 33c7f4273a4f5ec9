package session

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/boardbot/boardbot/session/kv"
)

// secretSize is the length of the secrets Secret makes.
const secretSize = 32

// Secret returns the secret kept under name, making a random one the
// first time: every process sharing the store gets the same secret, and
// it survives restarts (the web board's signing key when none is
// configured).
func (s *Service) Secret(ctx context.Context, name string) ([]byte, error) {
	var secret []byte
	err := s.kv.Update(ctx, func(tx kv.Tx) error {
		v, err := tx.Get(bucketSecrets, []byte(name))
		if err != nil {
			return err
		}
		if len(v) == secretSize {
			secret = append([]byte(nil), v...)
			return nil
		}
		secret = make([]byte, secretSize)
		rand.Read(secret)
		return tx.Put(bucketSecrets, []byte(name), secret)
	})
	if err != nil {
		return nil, fmt.Errorf("session: secret %s: %w", name, err)
	}
	return secret, nil
}
