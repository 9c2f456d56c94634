//! A size-capped log of a bot's stderr: keeps the head, counts the rest.

/// Default cap on the stderr kept per seat (64 KiB).
pub const DEFAULT_STDERR_CAP_BYTES: usize = 64 * 1024;

/// The first `cap` bytes written to it, plus a count of what was dropped.
#[derive(Debug, Clone, Default)]
pub struct CappedLog {
    head: Vec<u8>,
    cap: usize,
    dropped: u64,
}

impl CappedLog {
    /// An empty log keeping at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        Self {
            head: Vec::new(),
            cap,
            dropped: 0,
        }
    }

    /// Appends bytes, dropping whatever does not fit under the cap.
    pub fn push(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.head.len());
        let kept = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..kept]);
        self.dropped += (bytes.len() - kept) as u64;
    }

    /// Bytes that did not fit.
    pub fn dropped_bytes(&self) -> u64 {
        self.dropped
    }

    /// Bytes pushed so far, kept or not: a position in the whole stream.
    pub fn total_bytes(&self) -> u64 {
        self.head.len() as u64 + self.dropped
    }

    /// The kept bytes between stream positions `start` and `end` (clipped
    /// to what was kept), as text with invalid UTF-8 replaced.
    pub fn slice(&self, start: u64, end: u64) -> String {
        let clip = |at: u64| {
            usize::try_from(at)
                .unwrap_or(usize::MAX)
                .min(self.head.len())
        };
        let (start, end) = (clip(start), clip(end));
        String::from_utf8_lossy(&self.head[start..end.max(start)]).into_owned()
    }

    /// The kept text (invalid UTF-8 replaced), with a closing note when
    /// something was dropped.
    pub fn render(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!(
                "[dojo: stderr truncated, {} more bytes not kept]\n",
                self.dropped
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_everything_under_the_cap() {
        let mut log = CappedLog::new(10);
        log.push(b"hello ");
        log.push(b"bot");
        assert_eq!(log.render(), "hello bot");
        assert_eq!(log.dropped_bytes(), 0);
    }

    #[test]
    fn slices_by_stream_position_within_what_was_kept() {
        let mut log = CappedLog::new(6);
        log.push(b"abc");
        log.push(b"defgh");
        assert_eq!(log.total_bytes(), 8);
        assert_eq!(log.slice(0, 3), "abc");
        assert_eq!(log.slice(3, u64::MAX), "def");
        assert_eq!(log.slice(7, 8), "");
        assert_eq!(log.slice(5, 2), "");
    }

    #[test]
    fn keeps_the_head_and_notes_truncation() {
        let mut log = CappedLog::new(8);
        log.push(b"12345");
        log.push(b"67890");
        log.push(&[b'z'; 1000]);
        assert_eq!(log.dropped_bytes(), 1002);
        assert_eq!(
            log.render(),
            "12345678\n[dojo: stderr truncated, 1002 more bytes not kept]\n"
        );
    }

    #[test]
    fn exact_fit_is_not_truncated() {
        let mut log = CappedLog::new(4);
        log.push(b"abcd");
        assert_eq!(log.render(), "abcd");
    }
}
