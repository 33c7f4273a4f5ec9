package discord

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIBase is the origin of Discord's API; discordgo's endpoints
// start with it unless SetAPIBase changes them.
const DefaultAPIBase = "https://discord.com/"

// SetAPIBase points discordgo at another origin, such as a REST proxy or
// a test server: base replaces https://discord.com/, so the API is at
// base + "api/v" + discordgo.APIVersion + "/" (v9 in discordgo v0.29.0). It sets every endpoint variable discordgo derived
// from the origin when it was initialised (the functions such as
// EndpointChannelMessage read these variables when called).
//
// The variables are process-global: SetAPIBase affects every discordgo
// session in the process, and must not run while a session makes
// requests.
func SetAPIBase(base string) error {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("discord: api base %q: want an http or https URL such as %s", base, DefaultAPIBase)
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	api := base + "api/v" + discordgo.APIVersion + "/"

	discordgo.EndpointDiscord = base
	discordgo.EndpointAPI = api
	discordgo.EndpointGuilds = api + "guilds/"
	discordgo.EndpointChannels = api + "channels/"
	discordgo.EndpointUsers = api + "users/"
	discordgo.EndpointGateway = api + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = api + "webhooks/"
	discordgo.EndpointStickers = api + "stickers/"
	discordgo.EndpointStageInstances = api + "stage-instances"
	discordgo.EndpointSKUs = api + "skus"
	discordgo.EndpointVoice = api + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = api + "/sticker-packs"
	discordgo.EndpointGuildCreate = api + "guilds"
	discordgo.EndpointApplications = api + "applications"
	discordgo.EndpointOAuth2 = api + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
	discordgo.EndpointOauth2 = discordgo.EndpointOAuth2
	discordgo.EndpointOauth2Applications = discordgo.EndpointOAuth2Applications
	return nil
}
