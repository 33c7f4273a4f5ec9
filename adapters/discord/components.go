package discord

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
)

// Discord's limits on a message's buttons.
const (
	maxRows        = 5
	maxRowButtons  = 5
	maxCustomIDLen = 100
	maxLabelLen    = 80
)

// idSep separates a button's callback data from the index that keeps its
// custom_id unique in the message; the callback codec never uses it.
const idSep = "#"

// components maps a keyboard onto action rows within Discord's limits. A
// keyboard that fits is kept whole. Otherwise the rows holding cells are
// left out (moves are typed with /move) and what remains is cut to 5 rows
// of 5 buttons. trimmed reports whether anything was left out.
//
// Every custom_id is unique in the message, as Discord requires: the first
// button with some callback data carries the data itself, later ones (the
// no-op buttons, which all encode to "n") get idSep and their index
// appended; tapData undoes it.
func components(kb render.Keyboard) (rows []discordgo.MessageComponent, trimmed bool) {
	keep := kb.Rows
	if !fits(keep) {
		trimmed = true
		keep = nil
		for _, r := range kb.Rows {
			if !boardRow(r) {
				keep = append(keep, r)
			}
		}
	}
	seen := make(map[string]bool)
	n := 0
	for _, r := range keep {
		if len(rows) == maxRows {
			trimmed = true
			break
		}
		if len(r) > maxRowButtons {
			trimmed = true
			r = r[:maxRowButtons]
		}
		var row discordgo.ActionsRow
		for _, b := range r {
			id := adapters.EncodeAction(b.Action)
			if seen[id] {
				id += idSep + strconv.Itoa(n)
			}
			n++
			if len(id) > maxCustomIDLen {
				trimmed = true
				continue
			}
			seen[id] = true
			row.Components = append(row.Components, button(b, id))
		}
		if len(row.Components) > 0 {
			rows = append(rows, row)
		}
	}
	return rows, trimmed
}

// fits reports whether rows are within the limits of one message.
func fits(rows [][]render.Button) bool {
	if len(rows) > maxRows {
		return false
	}
	for _, r := range rows {
		if len(r) > maxRowButtons {
			return false
		}
	}
	return true
}

// boardRow reports whether a keyboard row shows board cells: all its
// buttons place a stone or do nothing.
func boardRow(r []render.Button) bool {
	for _, b := range r {
		if b.Action.Kind != render.Place && b.Action.Kind != render.Noop {
			return false
		}
	}
	return true
}

// button returns the Discord button for b with the given custom_id.
func button(b render.Button, id string) discordgo.Button {
	label := b.Label
	if label == "" {
		label = "·"
	}
	if r := []rune(label); len(r) > maxLabelLen {
		label = string(r[:maxLabelLen])
	}
	btn := discordgo.Button{Label: label, CustomID: id, Style: discordgo.SecondaryButton}
	switch b.Action.Kind {
	case render.Noop:
		btn.Disabled = true
	case render.Resign, render.Decline, render.Cancel, render.UndoDecline:
		btn.Style = discordgo.DangerButton
	case render.Accept, render.Rematch, render.UndoAccept:
		btn.Style = discordgo.SuccessButton
	case render.Scroll, render.Undo, render.Hint:
		btn.Style = discordgo.PrimaryButton
	}
	return btn
}

// tapData returns the callback data of a button's custom_id.
func tapData(customID string) string {
	data, _, _ := strings.Cut(customID, idSep)
	return data
}

// hasComponent reports whether the components, as Discord delivered them
// with the tapped message, hold a button with the custom_id: game data
// only edits a message that shows the game, so a forged tap cannot
// repaint another message, such as someone's board.
func hasComponent(comps []discordgo.MessageComponent, customID string) bool {
	for _, c := range comps {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if hasComponent(c.Components, customID) {
				return true
			}
		case *discordgo.Button:
			if c.CustomID == customID {
				return true
			}
		}
	}
	return false
}

// webPrefix begins the custom_id of a board's 🌐 button, which answers
// the one who taps it, alone, with their link to the game's web board.
const webPrefix = "web:"

// withWebButton returns rows with a 🌐 button for game after the last
// button, in the last row when it has room, else in a row of its own,
// when Discord's limits leave room for it.
func withWebButton(rows []discordgo.MessageComponent, game string) []discordgo.MessageComponent {
	btn := discordgo.Button{Label: "🌐", CustomID: webPrefix + game, Style: discordgo.SecondaryButton}
	if n := len(rows); n > 0 {
		if last, ok := rows[n-1].(discordgo.ActionsRow); ok && len(last.Components) < maxRowButtons {
			last.Components = append(last.Components[:len(last.Components):len(last.Components)], btn)
			return append(rows[:n-1:n-1], last)
		}
	}
	if len(rows) >= maxRows {
		return rows
	}
	return append(rows[:len(rows):len(rows)], discordgo.ActionsRow{Components: []discordgo.MessageComponent{btn}})
}
