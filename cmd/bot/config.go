package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/engine"
)

// Secret is a value that must never be printed: its String and LogValue
// are redacted.
type Secret string

// String returns a redacted placeholder, or "" when the secret is unset.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// LogValue keeps the secret out of structured logs.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Config is the bot's configuration, read from YAML and overridden by
// environment variables. config.example.yaml documents every key.
type Config struct {
	Database struct {
		// Backend is bbolt (one process, the default) or etcd (replicas
		// sharing a cluster).
		Backend string `yaml:"backend"`
		// Path is the bbolt file.
		Path string     `yaml:"path"`
		Etcd EtcdConfig `yaml:"etcd"`
	} `yaml:"database"`
	Log struct {
		Level string `yaml:"level"`
	} `yaml:"log"`
	Console struct {
		// Enabled runs the terminal game even when a platform token is set.
		Enabled bool   `yaml:"enabled"`
		Locale  string `yaml:"locale"`
	} `yaml:"console"`
	AI struct {
		// ThinkTime bounds how long the hard AI searches one move.
		ThinkTime time.Duration `yaml:"think_time"`
		// Workers is how many hard searches run at once; 0 means the
		// number of CPUs.
		Workers int `yaml:"workers"`
		// Queue is how many hard searches may wait for a worker; 0 means
		// session.DefaultAIQueue.
		Queue int `yaml:"queue"`
	} `yaml:"ai"`
	Limits struct {
		GamesPerUser      int           `yaml:"games_per_user"`
		GamesPerChat      int           `yaml:"games_per_chat"`
		ChallengeCooldown time.Duration `yaml:"challenge_cooldown"`
		// UndosPerGame is how many takebacks one game may have; 0 means
		// no limit.
		UndosPerGame int `yaml:"undos_per_game"`
		// HintsPerGame is how many hints a game against the AI allows;
		// 0 turns hints off.
		HintsPerGame int `yaml:"hints_per_game"`
	} `yaml:"limits"`
	History struct {
		// Keep is how long finished games stay in /history and can be
		// replayed; the sweeper forgets older ones. 0 keeps them forever.
		Keep time.Duration `yaml:"keep"`
	} `yaml:"history"`
	Metrics struct {
		// Listen is the address of /metrics, /healthz and /backup; empty
		// serves none of them. A bare ":PORT" means loopback only.
		Listen string `yaml:"listen"`
		// BackupToken is the bearer token /backup requires; empty turns
		// /backup off. At least minBackupToken characters.
		BackupToken Secret `yaml:"backup_token"`
	} `yaml:"metrics"`
	// ShutdownTimeout bounds how long the bot finishes the work in hand
	// after it is told to stop.
	ShutdownTimeout time.Duration  `yaml:"shutdown_timeout"`
	Web             WebConfig      `yaml:"web"`
	Telegram        TelegramConfig `yaml:"telegram"`
	Discord         struct {
		Token Secret `yaml:"token"`
		// AppID is the application id; empty means the bot user's id.
		AppID string `yaml:"app_id"`
		// GuildID registers the slash commands on one server only.
		GuildID string `yaml:"guild_id"`
		// APIBase replaces https://discord.com/ (a REST proxy, or a test).
		APIBase string `yaml:"api_base"`
		// DeferAfter is how long an interaction may run before its answer
		// is deferred (Discord wants one within 3 s).
		DeferAfter time.Duration `yaml:"defer_after"`
		// Interactions, with a public key, serves the Interactions
		// Endpoint URL instead of opening the gateway.
		Interactions struct {
			// Listen is the address of the endpoint, such as ":8080".
			Listen string `yaml:"listen"`
			// Path is the endpoint's path; default "/interactions".
			Path string `yaml:"path"`
			// PublicKey is the application's public key, in hex.
			PublicKey string `yaml:"public_key"`
		} `yaml:"interactions"`
	} `yaml:"discord"`
}

// EtcdConfig is the database.etcd section: the cluster replicas share.
type EtcdConfig struct {
	// Endpoints are the members' client URLs.
	Endpoints []string `yaml:"endpoints"`
	// Prefix is put before every key the bot writes.
	Prefix string `yaml:"prefix"`
	// Username and Password authenticate when the cluster has auth on.
	Username string `yaml:"username"`
	Password Secret `yaml:"password"`
	// CAFile, CertFile and KeyFile turn TLS on: the CA that signed the
	// members' certificates, and a client certificate and key if the
	// cluster asks for one.
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
	// DialTimeout bounds connecting, RequestTimeout each request.
	DialTimeout    time.Duration `yaml:"dial_timeout"`
	RequestTimeout time.Duration `yaml:"request_timeout"`
}

// defaultConfig returns the configuration used where the file and the
// environment say nothing.
func defaultConfig() Config {
	var c Config
	c.Database.Backend = "bbolt"
	c.Database.Path = "data/bot.db"
	c.Database.Etcd.Prefix = "boardbot/"
	c.Database.Etcd.DialTimeout = 5 * time.Second
	c.Database.Etcd.RequestTimeout = 5 * time.Second
	c.Log.Level = "info"
	c.Console.Locale = "en"
	c.AI.ThinkTime = engine.DefaultThinkTime
	c.Limits.GamesPerUser = 5
	c.Limits.GamesPerChat = 100
	c.Limits.ChallengeCooldown = 5 * time.Second
	c.Limits.UndosPerGame = 3
	c.Limits.HintsPerGame = 3
	c.ShutdownTimeout = 10 * time.Second
	c.Discord.Interactions.Path = "/interactions"
	c.Discord.DeferAfter = discord.DefaultDeferAfter
	c.Web.LinkTTL = 24 * time.Hour
	return c
}

// envOverrides are the environment variables that override config keys.
var envOverrides = []struct {
	name, key string // the variable, and the YAML key it overrides
	set       func(*Config, string)
}{
	{"TELEGRAM_TOKEN", "telegram.token", func(c *Config, v string) { c.Telegram.Token = Secret(v) }},
	{"TELEGRAM_API_ENDPOINT", "telegram.api_endpoint", func(c *Config, v string) { c.Telegram.APIEndpoint = v }},
	{"TELEGRAM_WEBHOOK_SECRET", "telegram.webhook.secret", func(c *Config, v string) { c.Telegram.Webhook.Secret = Secret(v) }},
	{"DISCORD_TOKEN", "discord.token", func(c *Config, v string) { c.Discord.Token = Secret(v) }},
	{"DISCORD_PUBLIC_KEY", "discord.interactions.public_key", func(c *Config, v string) { c.Discord.Interactions.PublicKey = v }},
	{"BOT_DB", "database.path", func(c *Config, v string) { c.Database.Path = v }},
	{"BOT_DB_BACKEND", "database.backend", func(c *Config, v string) { c.Database.Backend = v }},
	{"BOT_ETCD_ENDPOINTS", "database.etcd.endpoints", func(c *Config, v string) { c.Database.Etcd.Endpoints = splitList(v) }},
	{"BOT_ETCD_PASSWORD", "database.etcd.password", func(c *Config, v string) { c.Database.Etcd.Password = Secret(v) }},
	{"BOT_LOG_LEVEL", "log.level", func(c *Config, v string) { c.Log.Level = v }},
	{"BOT_METRICS_LISTEN", "metrics.listen", func(c *Config, v string) { c.Metrics.Listen = v }},
	{"BOT_BACKUP_TOKEN", "metrics.backup_token", func(c *Config, v string) { c.Metrics.BackupToken = Secret(v) }},
	{"BOT_WEB_LISTEN", "web.listen", func(c *Config, v string) { c.Web.Listen = v }},
	{"BOT_WEB_PUBLIC_URL", "web.public_url", func(c *Config, v string) { c.Web.PublicURL = v }},
	{"BOT_WEB_SECRET", "web.secret", func(c *Config, v string) { c.Web.Secret = Secret(v) }},
}

// hintsEnv overrides limits.hints_per_game, a number: loadConfig
// parses it apart from envOverrides, whose values are text.
const hintsEnv = "BOT_HINTS_PER_GAME"

// historyKeepEnv overrides history.keep, a duration or "forever":
// loadConfig parses it apart from envOverrides, whose values are text.
const historyKeepEnv = "BOT_HISTORY_KEEP"

// loadConfig reads the configuration and checks every key (validate),
// whichever platforms are used. Each key is taken from, the later winning:
// the defaults, the YAML file at path (none when path is empty), the
// environment from getenv, and the flags (each sets its keys on the
// configuration). Unknown keys and bad values are errors, so a typo does
// not silently fall back to a default.
func loadConfig(path string, getenv func(string) string, flags ...func(*Config)) (Config, error) {
	c := defaultConfig()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return c, fmt.Errorf("config: %w", err)
		}
		if err := decodeYAML(path, data, &c); err != nil {
			return c, err
		}
	}
	for _, e := range envOverrides {
		if v := getenv(e.name); v != "" {
			e.set(&c, v)
		}
	}
	if v := getenv(hintsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return c, fmt.Errorf("config: limits.hints_per_game (env %s) %q: %w: want a whole number, 0 for none", hintsEnv, v, errBadValue)
		}
		c.Limits.HintsPerGame = n
	}
	if v := getenv(historyKeepEnv); v != "" {
		d, err := parseDuration("history.keep", v)
		if err != nil {
			return c, keyError(fmt.Sprintf("config: %s: %v", keyName("history.keep"), err))
		}
		c.History.Keep = d
	}
	for _, set := range flags {
		set(&c)
	}
	return c, validate(c)
}

// keyError is a config key's value refused while reading it, from the
// file or the environment: one line naming the key. Like the errors of
// validate, it is errBadValue.
type keyError string

// Error returns the line.
func (e keyError) Error() string { return string(e) }

// Is reports whether target is errBadValue.
func (e keyError) Is(target error) bool { return target == errBadValue }

// foreverKeys are the duration keys that also take "forever", meaning 0.
var foreverKeys = map[string]bool{"history.keep": true}

// parseDuration parses s, the value of the duration key in the YAML file
// or the environment: a Go duration such as 30s, or 0, or for the
// foreverKeys "forever" (0). A bare number other than 0 is refused, since
// its unit would be a guess.
func parseDuration(key, s string) (time.Duration, error) {
	example := "30s"
	if foreverKeys[key] {
		if s == "forever" {
			return 0, nil
		}
		example = "8760h, or forever"
	}
	if s != "" && strings.Trim(s, "0123456789.+-") == "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("%s has no unit: write a duration like %s", s, example)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like %s", s, example)
	}
	return d, nil
}

// durationType is the type of the config's duration keys.
var durationType = reflect.TypeFor[time.Duration]()

// decodeYAML decodes the YAML document data, read from the file named
// file, over c: the keys it has replace their defaults. It returns one
// line per unknown or repeated key and per value of the wrong kind (an
// errBadValue), each naming the file, the key and its line. A duration is
// parsed by parseDuration, as its environment variable is.
func decodeYAML(file string, data []byte, c *Config) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil // empty, or comments only
	}
	var errs []error
	decodeNode(file, "", doc.Content[0], reflect.ValueOf(c).Elem(), &errs)
	return errors.Join(errs...)
}

// decodeNode decodes n, the value of key (dotted; "" for the whole
// file), into v, adding an error to errs for each key it cannot use.
func decodeNode(file, key string, n *yaml.Node, v reflect.Value, errs *[]error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.ShortTag() == "!!null" {
		return // "key:" without a value keeps the default
	}
	bad := func(problem string) {
		where := file
		if key != "" {
			where += ": " + key
		}
		*errs = append(*errs, keyError(fmt.Sprintf("%s: %s (line %d)", where, problem, n.Line)))
	}
	switch {
	case v.Type() == durationType:
		if n.Kind != yaml.ScalarNode {
			bad(yamlKind(n) + " is not a duration like 30s")
			return
		}
		d, err := parseDuration(key, n.Value)
		if err != nil {
			bad(err.Error())
			return
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			bad(yamlKind(n) + " is not a mapping of keys")
			return
		}
		decodeFields(file, key, n, v, errs)
	default:
		if err := n.Decode(v.Addr().Interface()); err != nil {
			bad(yamlKind(n) + " is not " + yamlWant(v.Type()))
		}
	}
}

// decodeFields decodes the mapping n, the value of key, into the struct
// v: each of its keys into the field of that yaml tag.
func decodeFields(file, key string, n *yaml.Node, v reflect.Value, errs *[]error) {
	lines := map[string]int{} // where each key was met
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, value := n.Content[i], n.Content[i+1]
		if k.ShortTag() == "!!merge" { // <<: *anchor, or a list of them
			if value.Kind == yaml.SequenceNode {
				for _, m := range value.Content {
					decodeNode(file, key, m, v, errs)
				}
			} else {
				decodeNode(file, key, value, v, errs)
			}
			continue
		}
		name := k.Value
		if key != "" {
			name = key + "." + k.Value
		}
		if line, ok := lines[k.Value]; ok {
			*errs = append(*errs, fmt.Errorf("%s: key %q appears twice (lines %d and %d)", file, name, line, k.Line))
			continue
		}
		lines[k.Value] = k.Line
		f, ok := yamlField(v, k.Value)
		if !ok {
			*errs = append(*errs, fmt.Errorf("%s: unknown key %q (line %d)", file, name, k.Line))
			continue
		}
		decodeNode(file, name, value, f, errs)
	}
}

// yamlField returns the field of the struct v whose yaml tag is name.
func yamlField(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); tag == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// yamlKind describes the value n in an error: quoted when a scalar.
func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return strconv.Quote(n.Value)
}

// yamlWant says what a key of type t wants, in an error.
func yamlWant(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	}
	return "text"
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var items []string
	for _, it := range strings.Split(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			items = append(items, it)
		}
	}
	return items
}

// minBackupToken is the shortest metrics.backup_token accepted.
const minBackupToken = 16

// logLevel parses a log level name.
func logLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(s))); err != nil {
		return 0, fmt.Errorf("config: log.level %q: want debug, info, warn or error", s)
	}
	return l, nil
}
