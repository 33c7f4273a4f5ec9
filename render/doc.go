// Package render turns game views into what players see: the emoji board
// text, a platform-neutral keyboard of buttons, typed coordinates, and the
// catalog of every user-facing message in English and Chinese.
//
// It knows nothing of platforms: each adapter maps a Keyboard onto its own
// widgets within the Layout it passes in. Everything here is a pure
// function of its arguments and safe for concurrent use.
package render
