package render

// The messages of the terminal's own features.
const (
	// MsgTypeCell follows a board larger than the terminal's buttons,
	// shown with its control buttons only: cells are typed, like %s.
	MsgTypeCell Key = "type_cell"
	// MsgTypeCellWeb adds the web board to MsgTypeCell when it is served.
	MsgTypeCellWeb Key = "type_cell_web"
	// MsgKeysOn and MsgKeysOff answer /keys, which numbers the cells of
	// boards larger than the terminal's buttons, or stops numbering them.
	MsgKeysOn  Key = "keys_on"
	MsgKeysOff Key = "keys_off"
	// MsgButtonIdle answers a typed button number (%d) whose button does
	// nothing now, such as an arrow at the board's edge.
	MsgButtonIdle Key = "button_idle"
)

// terminalCatalog holds the messages of the block above.
var terminalCatalog = map[Key]map[Lang]string{
	MsgTypeCell:    {English: "Type a cell to play, like %s; /keys numbers the cells.", Chinese: "输入坐标落子，如 %s；/keys 给格子编号。"},
	MsgTypeCellWeb: {English: "/web opens the board in a browser.", Chinese: "/web 在浏览器中打开棋盘。"},
	MsgKeysOn:      {English: "Big boards now show their cells as numbered buttons; /keys again to type cells only.", Chinese: "大棋盘的格子现在显示为编号按钮；再次输入 /keys 则只输入坐标。"},
	MsgKeysOff:     {English: "Big boards now take typed cells only, like h8; /keys numbers the cells again.", Chinese: "大棋盘现在只接受输入坐标，如 h8；/keys 重新给格子编号。"},
	MsgButtonIdle:  {English: "Button %d: nothing to do there now.", Chinese: "按钮 %d 现在不起作用。"},
}
