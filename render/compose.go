package render

import (
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// Board is what a message showing a game or a challenge holds, the same
// on every platform; a platform adds only what is its own (uploading the
// picture, Discord's mentions and /move hint).
type Board struct {
	// Text is the whole message (Message): who plays which game, the
	// emoji board, the status lines and, when the buttons show part of
	// a larger board, which part (WindowText).
	Text string
	// Caption is the text that goes with the picture of the whole board
	// where a platform shows the picture instead of Text: Text without
	// the emoji board. Empty unless HasPicture is set.
	Caption string
	// Keyboard is the message's buttons, within the layout asked for.
	Keyboard Keyboard
	// HasPicture says the buttons show part of the board, so the message
	// comes with a picture of the whole board (the PNG of Picture). For a
	// game it depends on its rules and the layout alone, so a board
	// message never changes kind.
	HasPicture bool
}

// Compose returns the message that shows v in language l with buttons
// within layout; window is the top-left cell of the part of a large
// board the buttons show (nil: around the last move), as for
// BoardKeyboard.
func Compose(v session.View, l Lang, layout Layout, window *engine.Point) Board {
	text, kb := Message(v, l, layout, window)
	b := Board{Text: text, Keyboard: kb, HasPicture: kb.Partial}
	if b.HasPicture {
		header, lines := textParts(v, l)
		b.Caption = header + "\n" + lines
		if w := WindowText(v, kb, l); w != "" {
			b.Caption += "\n" + w
		}
	}
	return b
}
