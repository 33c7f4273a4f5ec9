package telegram

import "context"

// Flush waits until every edit b queued for chat (0: any) was made (or
// failed), or for ctx.
func Flush(ctx context.Context, b *Bot, chat int64) error { return b.outbox.flush(ctx, chat) }

// FlushInline waits until every edit b queued for inline message id was
// made (or failed), or for ctx.
func FlushInline(ctx context.Context, b *Bot, id string) error {
	return b.outbox.flush(ctx, inlineKey(id))
}
