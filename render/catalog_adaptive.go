package render

// The messages of the adaptive level and the rating against the AI.
const (
	// MsgLevelAdaptive names the adaptive level.
	MsgLevelAdaptive Key = "level_adaptive"
	// MsgAdaptiveAt names an adaptive AI in a game by the Elo (%d) of the
	// rung it plays at.
	MsgAdaptiveAt Key = "adaptive_at"
	// MsgStatsVsAI is a /stats line: the rating against the AI in a family
	// (%s), its deviation, and the games that counted.
	MsgStatsVsAI Key = "stats_vs_ai"
)

// adaptiveCatalog holds the messages of the block above.
var adaptiveCatalog = map[Key]map[Lang]string{
	MsgLevelAdaptive: {English: "adaptive", Chinese: "自适应"},
	MsgAdaptiveAt:    {English: "adaptive, about %d", Chinese: "自适应，约 %d"},
	MsgStatsVsAI: {
		English: "Rating against the AI, %s: %d ± %d (games counted: %d)",
		Chinese: "对 AI 的积分（%s）：%d ± %d（计入 %d 局）",
	},
}
