package render

// The messages of a chat's own language (/chatlang).
const (
	MsgHelpChatLang  Key = "help_chat_lang"
	MsgBadChatLang   Key = "bad_chat_lang"
	MsgChatLangSet   Key = "chat_lang_set"
	MsgChatLangAuto  Key = "chat_lang_auto"
	MsgChatLangAdmin Key = "chat_lang_admin"
	MsgMenuChatLang  Key = "menu_chat_lang"
	MsgSlashChatLang Key = "slash_chat_lang"
	MsgOptionAuto    Key = "option_auto"
)

var chatLangCatalog = map[Key]map[Lang]string{
	MsgHelpChatLang: {
		English: "/chatlang en|zh|auto — this chat's language, for everyone without a /lang of their own (chat admins only; auto: each person's app language)",
		Chinese: "/chatlang en|zh|auto — 本群的语言，用于没有用 /lang 设置语言的人（仅限群管理员；auto：各人应用的语言）",
	},
	MsgBadChatLang: {English: "Chat languages: /chatlang en, /chatlang zh or /chatlang auto.", Chinese: "群语言：/chatlang en、/chatlang zh 或 /chatlang auto。"},
	MsgChatLangSet: {
		English: "This chat's language is now %s. /lang en|zh still sets your own.",
		Chinese: "本群的语言现在是%s。/lang en|zh 仍可设置你自己的语言。",
	},
	MsgChatLangAuto: {
		English: "This chat has no language of its own now: I answer each person in their app's language.",
		Chinese: "本群不再有固定语言：我会用每个人应用的语言回复。",
	},
	MsgChatLangAdmin: {English: "Only the chat's administrators can set its language; /lang sets yours.", Chinese: "只有群管理员可以设置群语言；/lang 可设置你自己的语言。"},
	MsgMenuChatLang:  {English: "The chat's language (admins): en, zh or auto", Chinese: "群语言（管理员）：en、zh 或 auto"},
	MsgSlashChatLang: {English: "Choose the language of this chat (administrators)", Chinese: "选择本群的语言（管理员）"},
	MsgOptionAuto:    {English: "Each person's app language", Chinese: "各人应用的语言"},
}

// LangName returns the name of language l in itself: "English", "中文".
func LangName(l Lang) string {
	if l == Chinese {
		return "中文"
	}
	return "English"
}
