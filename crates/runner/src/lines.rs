//! Splitting a bot's output into lines without trusting it: a line longer
//! than the cap is reported once and skipped up to its newline, so a bot
//! cannot make the harness buffer an unbounded line.

use std::io::{self, Read};

/// Default cap on one line of bot output (64 KiB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024;

/// One item read from a bot's output stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEvent {
    /// A complete line, without its `\n` or `\r\n` (invalid UTF-8 is
    /// replaced). A last line without a newline before EOF counts too.
    Line(String),
    /// A line longer than the cap; the rest of it up to its newline is
    /// discarded and reading continues with the next line.
    TooLong,
    /// End of stream (or a read error, which means the same to us).
    Eof,
}

/// Reads lines of at most `max_line_bytes` bytes (not counting the `\n`).
#[derive(Debug)]
pub struct CappedLines<R> {
    source: R,
    max_line_bytes: usize,
    pending: Vec<u8>,
    /// Skipping the tail of an over-long line until its newline.
    discarding: bool,
    at_eof: bool,
}

const CHUNK: usize = 8 * 1024;

impl<R: Read> CappedLines<R> {
    /// Wraps `source`; `max_line_bytes` of 0 is treated as 1.
    pub fn new(source: R, max_line_bytes: usize) -> Self {
        Self {
            source,
            max_line_bytes: max_line_bytes.max(1),
            pending: Vec::new(),
            discarding: false,
            at_eof: false,
        }
    }

    /// The next line event. After `Eof` it keeps returning `Eof`.
    pub fn next_event(&mut self) -> LineEvent {
        loop {
            if let Some(pos) = self.pending.iter().position(|&b| b == b'\n') {
                let was_discarding = std::mem::replace(&mut self.discarding, false);
                let line: Vec<u8> = self.pending.drain(..=pos).take(pos).collect();
                if was_discarding {
                    continue;
                }
                return self.finish_line(line);
            }
            if self.discarding {
                self.pending.clear();
            } else if self.pending.len() > self.max_line_bytes {
                self.pending.clear();
                self.discarding = true;
                return LineEvent::TooLong;
            }
            if self.at_eof {
                if self.pending.is_empty() || self.discarding {
                    self.pending.clear();
                    return LineEvent::Eof;
                }
                let line = std::mem::take(&mut self.pending);
                return self.finish_line(line);
            }
            self.fill();
        }
    }

    /// Whether [`next_event`](Self::next_event) can answer from what has
    /// been read already, without blocking on the source.
    pub fn has_buffered_event(&self) -> bool {
        self.at_eof
            || self.pending.contains(&b'\n')
            || (!self.discarding && self.pending.len() > self.max_line_bytes)
    }

    fn finish_line(&self, mut line: Vec<u8>) -> LineEvent {
        if line.len() > self.max_line_bytes {
            return LineEvent::TooLong;
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        LineEvent::Line(String::from_utf8_lossy(&line).into_owned())
    }

    fn fill(&mut self) {
        let start = self.pending.len();
        self.pending.resize(start + CHUNK, 0);
        let read = loop {
            match self.source.read(&mut self.pending[start..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break 0,
            }
        };
        self.pending.truncate(start + read);
        if read == 0 {
            self.at_eof = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its data in fixed small pieces, to cross
    /// chunk boundaries inside lines.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn events(data: &[u8], cap: usize, step: usize) -> Vec<LineEvent> {
        let mut lines = CappedLines::new(Trickle { data, step }, cap);
        let mut out = Vec::new();
        loop {
            let event = lines.next_event();
            let done = event == LineEvent::Eof;
            out.push(event);
            if done {
                return out;
            }
        }
    }

    fn line(s: &str) -> LineEvent {
        LineEvent::Line(s.to_string())
    }

    #[test]
    fn exact_cap_is_a_line_and_one_more_byte_is_too_long() {
        for step in [1, 3, 8192] {
            assert_eq!(
                events(b"12345678\n123456789\nok\n", 8, step),
                vec![
                    line("12345678"),
                    LineEvent::TooLong,
                    line("ok"),
                    LineEvent::Eof
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn over_long_line_is_reported_once_then_reading_goes_on() {
        let mut data = vec![b'x'; 100_000];
        data.extend_from_slice(b"\n3\n");
        for step in [7, 4096, 200_000] {
            assert_eq!(
                events(&data, 64, step),
                vec![LineEvent::TooLong, line("3"), LineEvent::Eof],
                "step {step}"
            );
        }
    }

    #[test]
    fn buffered_events_are_reported_without_reading() {
        let mut lines = CappedLines::new(
            Trickle {
                data: b"1\n2\n3",
                step: 100,
            },
            8,
        );
        assert!(!lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("1"));
        assert!(lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("2"));
        // "3" has no newline yet: the next event needs another read.
        assert!(!lines.has_buffered_event());
        assert_eq!(lines.next_event(), line("3"));
        assert!(lines.has_buffered_event());
        assert_eq!(lines.next_event(), LineEvent::Eof);
    }

    #[test]
    fn crlf_and_final_unterminated_line() {
        assert_eq!(
            events(b"a\r\nb\n\nlast", 16, 2),
            vec![line("a"), line("b"), line(""), line("last"), LineEvent::Eof]
        );
    }

    #[test]
    fn unterminated_over_long_tail_ends_in_eof() {
        assert_eq!(
            events(b"ok\nxxxxxxxxxxxxxxxxxxxx", 4, 5),
            vec![line("ok"), LineEvent::TooLong, LineEvent::Eof]
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(
            events(b"\xff1\n", 8, 8),
            vec![line("\u{fffd}1"), LineEvent::Eof]
        );
    }
}
