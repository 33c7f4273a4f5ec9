module github.com/boardbot/boardbot

go 1.26.8

require (
	github.com/go-telegram-bot-api/telegram-bot-api/v5 v5.5.1
	go.etcd.io/bbolt v1.4.3
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/sys v0.29.0 // indirect
