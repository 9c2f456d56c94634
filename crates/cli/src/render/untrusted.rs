//! Text a bot controls, made safe to print to a terminal.
//!
//! A bot's stderr, its `bot.toml`'s fields (`description`, `games`, its
//! commands), its build's output and the names of the files in a bots
//! folder are written by whoever submitted the bot, and dojo shows them to
//! the organiser. Printed as they are, a control character in them is
//! obeyed by the organiser's terminal: `ESC ] 0 ;` retitles the window,
//! OSC 52 writes the clipboard, `ESC [ 30 A ESC [ J` moves the cursor up
//! and erases the real standings to leave forged lines in their place. So
//! every control character (C0 but tab, DEL, C1) is shown as a visible
//! escape instead (`\x1b`, `\u{9b}`): the organiser sees that something
//! was there, and the terminal obeys nothing.
//!
//! Unicode's bidirectional formatting characters are escaped the same way
//! (`\u{202e}`): not controls (they are `Cf`), but a terminal that lays
//! out right-to-left text obeys them too. A folder entry named
//! `U+202E yp-modnar` reads as `random-py`, a stderr line ending
//! `U+202E gnp.exe` as `exe.png`: the organiser would read a name or a
//! file that is not there. Ordinary text, any script's (right-to-left
//! letters too), is left as it is.
//!
//! The files dojo writes keep the text as the bot wrote it (the record,
//! `report.json`): the HTML pages escape it for a browser (and show the
//! bidirectional formatting characters as the same escapes:
//! `escapeBidi` in `html/common.js`), the JUnit report for XML; this is
//! only for what is printed. dojo's own colours are added around such
//! text, never inside it, and stay.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` for one line of a terminal: every control character but tab
/// (newlines too) and every bidirectional formatting character shown as
/// an escape. Borrowed when there is none.
pub fn line(text: &str) -> Cow<'_, str> {
    escaped(text, false)
}

/// `text` printed as lines on purpose (an error message of several
/// lines): as [`line()`], but newlines kept.
pub fn lines(text: &str) -> Cow<'_, str> {
    escaped(text, true)
}

/// Unicode's bidirectional formatting characters (`Bidi_Control`): the
/// marks (ALM U+061C, LRM U+200E, RLM U+200F), the embeddings and
/// overrides (U+202A to U+202E) and the isolates (U+2066 to U+2069). The
/// pages' `shown()` (`html/common.js`) escapes the same set.
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

fn escaped(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    // `char::is_control` is Unicode's Cc: C0, DEL and C1.
    let bad = |c: char| {
        (c.is_control() && c != '\t' && !(keep_newlines && c == '\n')) || is_bidi_control(c)
    };
    let Some(at) = text.find(bad) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..at]);
    for c in text[at..].chars() {
        if !bad(c) {
            out.push(c);
        } else if c.is_ascii() {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c0_controls_and_del_are_shown_as_escapes() {
        assert_eq!(
            line("hi \x1b]0;TITLE\x07 there"),
            "hi \\x1b]0;TITLE\\x07 there"
        );
        assert_eq!(line("\x1b[30A\x1b[J"), "\\x1b[30A\\x1b[J");
        assert_eq!(line("\0a\x08b\rc\x7f"), "\\x00a\\x08b\\x0dc\\x7f");
        assert_eq!(line("one\ntwo"), "one\\x0atwo");
    }

    #[test]
    fn c1_controls_are_shown_as_escapes() {
        // U+009B is a one-character CSI; U+009D a one-character OSC.
        assert_eq!(line("a\u{9b}2Jb"), "a\\u{9b}2Jb");
        assert_eq!(
            line("\u{80}\u{9d}0;T\u{9c}\u{9f}"),
            "\\u{80}\\u{9d}0;T\\u{9c}\\u{9f}"
        );
    }

    #[test]
    fn bidirectional_formatting_characters_are_shown_as_escapes() {
        // A directory that would read as `random-py`, a stderr line that
        // would end in `exe.png`.
        assert_eq!(line("\u{202e}yp-modnar"), "\\u{202e}yp-modnar");
        assert_eq!(
            lines("saved to photo\u{202e}gnp.exe\nok"),
            "saved to photo\\u{202e}gnp.exe\nok"
        );
        for (c, shown) in [
            ('\u{061c}', "\\u{61c}"),
            ('\u{200e}', "\\u{200e}"),
            ('\u{200f}', "\\u{200f}"),
            ('\u{202a}', "\\u{202a}"),
            ('\u{202b}', "\\u{202b}"),
            ('\u{202c}', "\\u{202c}"),
            ('\u{202d}', "\\u{202d}"),
            ('\u{2066}', "\\u{2066}"),
            ('\u{2067}', "\\u{2067}"),
            ('\u{2068}', "\\u{2068}"),
            ('\u{2069}', "\\u{2069}"),
        ] {
            assert_eq!(line(&format!("a{c}b")), format!("a{shown}b"));
        }
        // Their neighbours, and right-to-left letters, are ordinary text.
        for text in ["\u{200d}\u{2060}\u{2065}\u{202f}", "שלום", "مرحبا"] {
            assert!(matches!(line(text), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn tab_stays_and_newlines_stay_only_in_lines() {
        assert_eq!(line("a\tb"), "a\tb");
        assert_eq!(lines("a\tb\nc\x1b[2J\n"), "a\tb\nc\\x1b[2J\n");
        assert_eq!(lines("a\r\nb"), "a\\x0d\nb");
    }

    #[test]
    fn ordinary_text_is_left_as_it_is_and_not_copied() {
        for text in [
            "",
            "plays at random",
            "crash_third: no third move",
            "héllo wörld, 日本語, emoji 🦀, ¥ and \u{a0}nbsp",
            "a backslash \\x1b already escaped",
        ] {
            assert!(
                matches!(line(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
            assert!(
                matches!(lines(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
        // Multi-byte characters around an escape come through whole.
        assert_eq!(line("日\x1b本🦀\u{85}é"), "日\\x1b本🦀\\u{85}é");
    }
}
