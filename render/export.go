package render

import (
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// The lines of Export.
const (
	// MsgExportGame names the game and its rules as /play takes them.
	MsgExportGame   Key = "export_game"
	MsgExportFirst  Key = "export_first"
	MsgExportSecond Key = "export_second"
	MsgExportDate   Key = "export_date"
	MsgExportResult Key = "export_result"
	// MsgExportMoves counts the moves and lists them.
	MsgExportMoves Key = "export_moves"
)

// Export returns the record of game v in language l, to paste into other
// gomoku tools: the game and its rules, who moved first and second, the
// day it started (UTC), the result (Status), and the moves in the cell
// names the board shows, separated by spaces ("h8 i9 j10"). It fits a
// message on every platform (DiscordTextLimit) for any board.
func Export(v session.View, l Lang) string {
	r := v.Rules()
	moves := v.Moves()
	cells := make([]string, len(moves))
	for i, m := range moves {
		cells[i] = FormatCoord(m, r)
	}
	return strings.Join([]string{
		T(l, MsgExportGame, GameName(l, r), r.String()),
		T(l, MsgExportFirst, seatLabel(v, engine.Black, l)),
		T(l, MsgExportSecond, seatLabel(v, engine.White, l)),
		T(l, MsgExportDate, v.Created().UTC().Format("2006-01-02")),
		T(l, MsgExportResult, Status(v, l)),
		T(l, MsgExportMoves, len(moves), strings.Join(cells, " ")),
	}, "\n")
}
