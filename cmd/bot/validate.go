package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram"
)

// errBadValue is wrapped by every error of validate: a config key whose
// value the bot cannot use.
var errBadValue = errors.New("bad value")

// maxDeferAfter is the longest discord.defer_after accepted: the
// deferral itself must still reach Discord within its 3 seconds.
const maxDeferAfter = 2500 * time.Millisecond

// maxThinkTime is the longest ai.think_time accepted: a move that takes
// longer would outlive the platforms' patience with a tap.
const maxThinkTime = time.Minute

// maxPaceMargin is the longest telegram.pace_margin accepted: each
// message of a chat counts that much longer than a second among
// replicas, so a long one slows every chat down.
const maxPaceMargin = 5 * time.Second

// webhookSecretPattern is what Telegram accepts as a webhook secret token.
var webhookSecretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// envOf returns the environment variable that overrides key, or "".
func envOf(key string) string {
	for _, v := range envVars() {
		if v[1] == key {
			return v[0]
		}
	}
	return ""
}

// envVars returns every environment variable the configuration reads,
// with the key it overrides: envOverrides, then those parsed apart.
func envVars() [][2]string {
	var vars [][2]string
	for _, e := range envOverrides {
		vars = append(vars, [2]string{e.name, e.key})
	}
	return append(vars, [2]string{hintsEnv, "limits.hints_per_game"}, [2]string{historyKeepEnv, "history.keep"})
}

// keyName returns key, followed by the environment variable that
// overrides it when there is one, as errors name it.
func keyName(key string) string {
	if env := envOf(key); env != "" {
		return key + " (env " + env + ")"
	}
	return key
}

// validate checks every key of c, whether or not its platform is used,
// and returns one error per bad key, joined (nil when all are good). Each
// names the key, the environment variable that overrides it, the value
// (never a secret's) and what is wanted.
func validate(c Config) error {
	var errs []error
	bad := func(key string, value any, want string) {
		name := keyName(key)
		shown := fmt.Sprintf("%q", fmt.Sprint(value))
		switch v := value.(type) {
		case Secret:
			shown = "(value hidden)"
		case time.Duration:
			shown = v.String()
		case int:
			shown = fmt.Sprint(v)
		}
		errs = append(errs, fmt.Errorf("config: %s %s: %w: want %s", name, shown, errBadValue, want))
	}
	nonNegative := func(key string, n int) {
		if n < 0 {
			bad(key, n, "0 or more")
		}
	}
	nonNegativeDuration := func(key string, d time.Duration) {
		if d < 0 {
			bad(key, d, "a duration of 0 or more, such as 5s")
		}
	}

	if strings.TrimSpace(c.Database.Path) == "" {
		bad("database.path", c.Database.Path, "a file path")
	}
	if b := c.Database.Backend; b != "bbolt" && b != "etcd" {
		bad("database.backend", b, "bbolt (one process) or etcd (replicas)")
	}
	ec := c.Database.Etcd
	if c.Database.Backend == "etcd" && len(ec.Endpoints) == 0 {
		bad("database.etcd.endpoints", "", "the cluster's client URLs, such as http://127.0.0.1:2379")
	}
	for _, e := range ec.Endpoints {
		if !etcdEndpoint(e) {
			bad("database.etcd.endpoints", e, "http(s)://host:port or host:port")
		}
	}
	if p := ec.Prefix; p == "" || hasSpace(p) {
		bad("database.etcd.prefix", p, "a key prefix without spaces, such as boardbot/")
	}
	if (ec.Username == "") != (ec.Password == "") {
		bad("database.etcd.username", ec.Username, "a username and a password together, or neither")
	}
	if (ec.CertFile == "") != (ec.KeyFile == "") {
		bad("database.etcd.cert_file", ec.CertFile, "cert_file and key_file together, or neither")
	}
	if ec.DialTimeout <= 0 {
		bad("database.etcd.dial_timeout", ec.DialTimeout, "a duration above 0, such as 5s")
	}
	if ec.RequestTimeout <= 0 {
		bad("database.etcd.request_timeout", ec.RequestTimeout, "a duration above 0, such as 5s")
	}
	if _, err := logLevel(c.Log.Level); err != nil {
		bad("log.level", c.Log.Level, "debug, info, warn or error")
	}
	if !knownLocale(c.Console.Locale) {
		bad("console.locale", c.Console.Locale, "en or zh (zh-CN, zh-hans… also work)")
	}
	if d := c.Discord.DeferAfter; d <= 0 || d > maxDeferAfter {
		bad("discord.defer_after", d, "a duration above 0 and at most "+maxDeferAfter.String()+", within Discord's 3s, such as 2s")
	}
	if c.AI.ThinkTime < 0 || c.AI.ThinkTime > maxThinkTime {
		bad("ai.think_time", c.AI.ThinkTime, "a duration from 0 (the default) to "+maxThinkTime.String()+", such as 1s")
	}
	nonNegative("ai.workers", c.AI.Workers)
	if c.AI.Queue < -1 {
		bad("ai.queue", c.AI.Queue, "-1 (none wait), 0 (the default) or more")
	}
	nonNegative("limits.games_per_user", c.Limits.GamesPerUser)
	nonNegative("limits.games_per_chat", c.Limits.GamesPerChat)
	nonNegativeDuration("limits.challenge_cooldown", c.Limits.ChallengeCooldown)
	nonNegative("limits.undos_per_game", c.Limits.UndosPerGame)
	nonNegative("limits.hints_per_game", c.Limits.HintsPerGame)
	if k := c.History.Keep; k != 0 && k < minHistoryKeep {
		bad("history.keep", k, "0 (forever, the default) or at least "+minHistoryKeep.String()+", such as 8760h")
	}
	if l := c.Metrics.Listen; l != "" && !listenAddr(l) {
		bad("metrics.listen", l, "host:port or :port"+portRange+", or empty for none")
	}
	if n := len(c.Metrics.BackupToken); n > 0 && n < minBackupToken {
		bad("metrics.backup_token", c.Metrics.BackupToken, fmt.Sprintf("at least %d characters, or empty to turn /backup off", minBackupToken))
	}
	nonNegativeDuration("shutdown_timeout", c.ShutdownTimeout)
	if l := c.Web.Listen; l != "" && !listenAddr(l) {
		bad("web.listen", l, "host:port or :port"+portRange+", or empty to serve the web board for the terminal only")
	}
	if u := c.Web.PublicURL; u != "" && (!webURL(u) || strings.ContainsAny(u, "?#")) {
		bad("web.public_url", u, "the http(s)://host[/path] users reach the web board at")
	}
	if n := len(c.Web.Secret); n > 0 && n < minWebSecret {
		bad("web.secret", c.Web.Secret, fmt.Sprintf("at least %d characters, or empty for one the bot makes", minWebSecret))
	}
	if t := c.Web.LinkTTL; t < time.Minute || t > 30*24*time.Hour {
		bad("web.link_ttl", t, "1m to 720h")
	}
	if c.Web.Listen != "" && c.Web.PublicURL == "" && (c.Telegram.Token != "" || c.Discord.Token != "") {
		bad("web.public_url", "", "the https:// address Telegram and Discord users reach web.listen at")
	}
	if n := c.Telegram.MiniApp; n != "" && !miniAppPattern.MatchString(n) {
		bad("telegram.mini_app", n, "the Mini App's short name from @BotFather: 3 to 30 letters, digits and _")
	}

	tg := c.Telegram
	if hasSpace(string(tg.Token)) {
		bad("telegram.token", tg.Token, "the token from @BotFather, without spaces or line breaks")
	}
	if e := tg.APIEndpoint; e != "" && (strings.Count(e, "%s") != 2 || !webURL(strings.ReplaceAll(e, "%s", "x"))) {
		bad("telegram.api_endpoint", e, "an http(s) URL with %s for the token and then the method, or empty")
	}
	if tg.Mode != "" && tg.Mode != "polling" && tg.Mode != "webhook" {
		bad("telegram.mode", tg.Mode, "polling or webhook")
	}
	webhook := tg.Mode == "webhook"
	if u := tg.Webhook.URL; (webhook || u != "") && !webURL(u) {
		bad("telegram.webhook.url", u, "the public https://host/path Telegram posts to")
	}
	if l := tg.Webhook.Listen; (webhook || l != "") && !listenAddr(l) {
		bad("telegram.webhook.listen", l, "host:port or :port"+portRange)
	}
	if s := tg.Webhook.Secret; (webhook || s != "") && !webhookSecretPattern.MatchString(string(s)) {
		bad("telegram.webhook.secret", s, "1-256 characters of A-Z, a-z, 0-9, _ and -")
	}
	nonNegative("telegram.workers", tg.Workers)
	if m := tg.PaceMargin; m < 0 || m > maxPaceMargin {
		bad("telegram.pace_margin", m, "0 (the default, "+telegram.DefaultPaceMargin.String()+") up to "+maxPaceMargin.String())
	}

	dc := c.Discord
	if hasSpace(string(dc.Token)) {
		bad("discord.token", dc.Token, "the bot token from the developer portal, without spaces or line breaks")
	}
	for _, f := range []struct{ key, id string }{{"discord.app_id", dc.AppID}, {"discord.guild_id", dc.GuildID}} {
		if f.id != "" && strings.Trim(f.id, "0123456789") != "" {
			bad(f.key, f.id, "a numeric id, or empty")
		}
	}
	if b := dc.APIBase; b != "" && !webURL(b) {
		bad("discord.api_base", b, "an http(s) URL, or empty")
	}
	in := dc.Interactions
	if k := in.PublicKey; k != "" {
		if b, err := hex.DecodeString(k); err != nil || len(b) != ed25519.PublicKeySize {
			bad("discord.interactions.public_key", k, "the application's public key: 64 hex digits from the developer portal")
		}
		if !listenAddr(in.Listen) {
			bad("discord.interactions.listen", in.Listen, "host:port or :port"+portRange+" of the Interactions Endpoint URL")
		}
		if dc.AppID == "" {
			bad("discord.app_id", dc.AppID, "the application id, which the interactions endpoint needs (no gateway tells it)")
		}
	} else if in.Listen != "" && !listenAddr(in.Listen) {
		bad("discord.interactions.listen", in.Listen, "host:port or :port"+portRange+", or empty")
	}
	if !strings.HasPrefix(in.Path, "/") {
		bad("discord.interactions.path", in.Path, "a path starting with /")
	}
	return errors.Join(errs...)
}

// etcdEndpoint reports whether s is an etcd client URL or host:port.
func etcdEndpoint(s string) bool {
	if strings.Contains(s, "://") {
		return webURL(s)
	}
	port, ok := hostPort(s)
	return ok && port > 0 && !strings.HasPrefix(s, ":")
}

// knownLocale reports whether the terminal's locale names a language of
// the catalog: en or zh, alone or with a region or script.
func knownLocale(s string) bool {
	l := strings.ToLower(s)
	for _, lang := range []string{"en", "zh"} {
		if l == lang || strings.HasPrefix(l, lang+"-") || strings.HasPrefix(l, lang+"_") {
			return true
		}
	}
	return false
}

// hostPort returns the port of s, an address such as ":9090" or
// "127.0.0.1:9090", and whether s is one: a host name or IP address
// (or nothing) and a port number up to 65535.
func hostPort(s string) (port int, ok bool) {
	host, p, err := net.SplitHostPort(s)
	if err != nil || p == "" || strings.Trim(p, "0123456789") != "" || strings.ContainsAny(host, "/@?#") || hasSpace(host) {
		return 0, false
	}
	port, err = strconv.Atoi(p)
	return port, err == nil && port <= 65535
}

// listenAddr reports whether s is an address to listen on: see hostPort.
// Port 0 asks for any free port, which the log then names.
func listenAddr(s string) bool {
	_, ok := hostPort(s)
	return ok
}

// portRange is how errors of listen addresses say which ports they take.
const portRange = " with a port from 1 to 65535 (0: any free one)"

// webURL reports whether s is an absolute http or https URL with a host.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// hasSpace reports whether s holds white space, as a token pasted with a
// line break does.
func hasSpace(s string) bool { return strings.ContainsAny(s, " \t\r\n") }

// miniAppPattern is what @BotFather accepts as a Mini App's short name.
var miniAppPattern = regexp.MustCompile(`^[A-Za-z0-9_]{3,30}$`)

// minWebSecret is the shortest web.secret accepted.
const minWebSecret = 16

// minHistoryKeep is the shortest history.keep accepted: a game just
// finished stays for its rematch and replay buttons.
const minHistoryKeep = 24 * time.Hour
