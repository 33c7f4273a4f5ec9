package render

// Layout is the most a platform shows as one message's buttons. A zero
// field means no limit of that kind.
type Layout struct {
	// Columns is the most buttons in one row.
	Columns int
	// Rows is the most rows, control rows included.
	Rows int
	// Buttons is the most buttons in all, controls included.
	Buttons int
}

// The layouts of the platforms.
var (
	// TelegramLayout is an inline keyboard: 8 buttons a row, 100 in all.
	TelegramLayout = Layout{Columns: 8, Buttons: 100}
	// DiscordLayout is a message's components: 5 action rows of 5 buttons.
	DiscordLayout = Layout{Columns: 5, Rows: 5, Buttons: 25}
	// ConsoleLayout is the terminal's: the Telegram layout, so that local
	// play walks the same windows and arrows a phone does, and numbered
	// buttons stay short.
	ConsoleLayout = TelegramLayout
)

// fits reports whether a w×h window of cells and controls more buttons
// fit l.
func (l Layout) fits(w, h, controls int) bool {
	if l.Columns > 0 && w > l.Columns {
		return false
	}
	if l.Rows > 0 && h+l.rowsFor(controls) > l.Rows {
		return false
	}
	return l.Buttons <= 0 || w*h+controls <= l.Buttons
}

// rowsFor returns how many rows n controls take.
func (l Layout) rowsFor(n int) int {
	if n == 0 {
		return 0
	}
	if l.Columns <= 0 {
		return 1
	}
	return (n + l.Columns - 1) / l.Columns
}
