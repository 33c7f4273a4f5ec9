package session

// Focus returns the id of the game the actor last saw or touched in the
// chat (see Turn.See), or ErrNotFound. The game may have ended since.
func (t *Turn) Focus() (GameID, error) {
	who := t.req.Actor
	return t.tx().Focus(who.Platform, who.Chat, who.User.ID)
}
