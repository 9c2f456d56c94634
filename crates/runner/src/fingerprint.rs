//! What identifies the bot that played: a hash of its manifest and of the
//! files its command names, so `dojo replay --rerun` can tell "the bot
//! changed since the game" from "the bot is not deterministic".

use std::io::Read;
use std::path::Path;

use crate::spec::{BotSpec, MANIFEST_FILE};

/// Files larger than this are identified by their size alone: hashing a
/// huge file for every rerun would cost more than it tells.
const MAX_HASHED_BYTES: u64 = 256 * 1024 * 1024;

/// FNV-1a, 64 bit: a stable, dependency-free hash. This is a change
/// detector, not a defence against someone forging a collision.
#[derive(Debug, Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A length-prefixed field, so `ab`+`c` and `a`+`bc` differ.
    fn field(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }
}

/// The kernel's views: their "regular files" say they are empty and are
/// not (a bot.toml naming `/proc/self/pagemap` had dojo read its own
/// page tables, terabytes of them, before the first game; `/proc/kmsg`
/// never ends). No bot's file is there.
const KERNEL_VIEWS: &[&str] = &["/proc", "/sys", "/dev"];

/// Hashes the file at `path` into `h` if it is a regular file outside the
/// kernel's views: its name as given, then its bytes (or only its size
/// when larger than [`MAX_HASHED_BYTES`]), never more than that many.
fn file(h: &mut Fnv, label: &str, path: &Path) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if !meta.is_file() {
        return;
    }
    let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if KERNEL_VIEWS.iter().any(|view| real.starts_with(view)) {
        return;
    }
    h.field(label.as_bytes());
    if meta.len() > MAX_HASHED_BYTES {
        h.field(&meta.len().to_le_bytes());
        return;
    }
    let Ok(f) = std::fs::File::open(path) else {
        return;
    };
    let mut f = f.take(MAX_HASHED_BYTES);
    let mut buf = vec![0; 64 * 1024];
    loop {
        match f.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => h.write(&buf[..n]),
        }
    }
}

/// The bot's fingerprint, `fnv1a64:` and 16 hex digits: a hash of its
/// command, its `bot.toml` (if it has one) and every file its command
/// names that exists (the program when it is a path, scripts and other
/// arguments relative to the bot's directory). Programs found on `PATH`
/// (`python3`) and files the bot opens by itself are not covered.
pub fn fingerprint(bot: &BotSpec) -> String {
    let mut h = Fnv::new();
    for word in &bot.command {
        h.field(word.as_bytes());
    }
    file(&mut h, MANIFEST_FILE, &bot.dir.join(MANIFEST_FILE));
    for word in &bot.command {
        if word.starts_with('-') {
            continue;
        }
        file(&mut h, word, &bot.dir.join(word));
    }
    format!("fnv1a64:{:016x}", h.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Mode;

    fn bot(dir: &Path, command: &[&str]) -> BotSpec {
        BotSpec {
            name: "b".into(),
            command: command.iter().map(|s| s.to_string()).collect(),
            dir: dir.to_path_buf(),
            build: None,
            mode: Mode::Auto,
            games: Vec::new(),
            team: None,
            description: None,
            values: Default::default(),
        }
    }

    /// A command naming a file of the kernel's (which says it is empty
    /// and is not) is fingerprinted by its words alone, at once.
    #[test]
    fn a_kernel_file_a_command_names_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let b = bot(dir.path(), &["python3", "bot.py", "/proc/self/pagemap"]);
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(fingerprint(&b)));
        let print = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the fingerprint is made without reading /proc/self/pagemap");
        assert!(print.starts_with("fnv1a64:"), "{print}");
    }

    #[test]
    fn changes_with_the_manifest_the_script_and_the_command() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "print(0)\n").unwrap();
        std::fs::write(
            dir.path().join("bot.toml"),
            "command = \"python3 bot.py\"\n",
        )
        .unwrap();
        let b = bot(dir.path(), &["python3", "bot.py"]);
        let first = fingerprint(&b);
        assert!(
            first.starts_with("fnv1a64:") && first.len() == 24,
            "{first}"
        );
        assert_eq!(fingerprint(&b), first);

        std::fs::write(dir.path().join("bot.py"), "print(1)\n").unwrap();
        let script = fingerprint(&b);
        assert_ne!(script, first);

        std::fs::write(
            dir.path().join("bot.toml"),
            "command = \"python3 bot.py\" \n",
        )
        .unwrap();
        assert_ne!(fingerprint(&b), script);

        assert_ne!(
            fingerprint(&bot(dir.path(), &["python3", "-u", "bot.py"])),
            fingerprint(&b)
        );
    }
}
