//! What identifies the bot that played: a hash of its manifest, of the
//! files its command names and, for a bot with a manifest, of every file
//! of its directory and its build cache (the `tree` module), so `dojo replay
//! --rerun` can tell "the bot changed since the game" from "the bot is
//! not deterministic", and `--resume`, `dojo merge` and a build step's
//! message "built" can tell a new version of a bot.

mod tree;

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
/// command, its `bot.toml` (if it has one), every file its command names
/// that exists (the program when it is a path, scripts and other
/// arguments relative to the bot's directory) and, for a bot with a
/// `bot.toml`, the files of its directory and its build cache as its `tree`
/// walks them. A bot without one (`NAME=COMMAND`, run in whatever the
/// current directory was) counts only the files its command names.
/// Programs found on `PATH` (`python3`) and files elsewhere that the bot
/// opens by itself are not covered.
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
    if let Some(cache) = bot.manifest_cache() {
        let mut budget = tree::Budget::new();
        tree::tree(&mut h, "dir", &bot.dir, &[], &mut budget);
        let overlays = [dojo_sandbox::build_box::CARGO_OVERLAYS];
        tree::tree(&mut h, "cache", &cache, &overlays, &mut budget);
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

    /// A bot with a manifest in a directory of its own, its build cache
    /// made (and removed when the test ends): the cache is in the user's
    /// cache directory, named after the temporary bots directory.
    struct WithCache {
        _tmp: tempfile::TempDir,
        dir: std::path::PathBuf,
        cache: std::path::PathBuf,
    }

    impl WithCache {
        fn new(command: &str) -> WithCache {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().canonicalize().unwrap().join("javabot");
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join("bot.toml"), format!("command = \"{command}\"\n")).unwrap();
            let cache = crate::spec::bot_cache(&dir);
            std::fs::create_dir_all(&cache).unwrap();
            WithCache {
                _tmp: tmp,
                dir,
                cache,
            }
        }

        fn write(&self, file: &str, text: &str) {
            std::fs::create_dir_all(
                file.rsplit_once('/')
                    .map_or(self.dir.clone(), |(d, _)| self.dir.join(d)),
            )
            .unwrap();
            std::fs::write(self.dir.join(file), text).unwrap();
        }
    }

    impl Drop for WithCache {
        fn drop(&mut self) {
            // The cache of the temporary bots directory, not only the bot's.
            if let Some(parent) = self.cache.parent() {
                let _ = std::fs::remove_dir_all(parent);
            }
        }
    }

    /// `java -cp classes Bot` names no file: its fingerprint covers its
    /// directory's files, and what its build left in its cache.
    #[test]
    fn changes_with_any_file_of_the_bots_directory_and_of_its_build_cache() {
        let b = WithCache::new("java -cp classes Bot");
        b.write("Bot.java", "class Bot {}");
        b.write("classes/Bot.class", "one");
        std::fs::create_dir_all(b.cache.join("lib")).unwrap();
        std::fs::write(b.cache.join("lib/util.jar"), "one").unwrap();
        let spec = bot(&b.dir, &["java", "-cp", "classes", "Bot"]);
        let first = fingerprint(&spec);
        assert_eq!(fingerprint(&spec), first);

        b.write("Bot.java", "class Bot { int x; }");
        let source = fingerprint(&spec);
        assert_ne!(source, first, "an edit of its source");
        b.write("classes/Bot.class", "two");
        let classes = fingerprint(&spec);
        assert_ne!(classes, source, "a class file of its directory");
        std::fs::write(b.cache.join("lib/util.jar"), "two").unwrap();
        let cached = fingerprint(&spec);
        assert_ne!(cached, classes, "a file of its build cache");
        std::fs::write(b.cache.join("new.class"), "").unwrap();
        assert_ne!(fingerprint(&spec), cached, "a new file, even empty");
    }

    /// What is no part of a bot's code leaves its fingerprint as it is:
    /// Python's byte code caches (written beside its modules as it plays
    /// under `--sandbox off`), version control's metadata, a build tool's
    /// tagged cache (Cargo's `target/`) but the program the command names,
    /// and the cache's overlays of cargo's downloads. A bot without a
    /// manifest (its directory may be anyone's current directory) counts
    /// only the files its command names.
    #[test]
    fn what_is_no_code_leaves_the_fingerprint_as_it_is() {
        let b = WithCache::new("target/release/bot");
        b.write(
            "target/CACHEDIR.TAG",
            "Signature: 8a477f597d28d172789f06886806bc55\n",
        );
        b.write("target/release/bot", "binary");
        b.write("target/release/deps/x.rlib", "one");
        let spec = bot(&b.dir, &["target/release/bot"]);
        let first = fingerprint(&spec);
        b.write("__pycache__/m.cpython-312.pyc", "bytes");
        b.write("pkg/__pycache__/n.pyc", "bytes");
        b.write(".git/index", "changed");
        b.write("target/release/deps/x.rlib", "two");
        let overlays = b.cache.join(dojo_sandbox::build_box::CARGO_OVERLAYS);
        std::fs::create_dir_all(&overlays).unwrap();
        std::fs::write(overlays.join("index"), "downloaded").unwrap();
        assert_eq!(fingerprint(&spec), first);
        b.write("target/release/bot", "rebuilt");
        assert_ne!(fingerprint(&spec), first, "the program it names counts");

        let bare = tempfile::tempdir().unwrap();
        std::fs::write(bare.path().join("bot.py"), "print(0)\n").unwrap();
        let spec = bot(bare.path(), &["python3", "bot.py"]);
        let first = fingerprint(&spec);
        std::fs::write(bare.path().join("notes.txt"), "anything").unwrap();
        assert_eq!(fingerprint(&spec), first);
    }

    /// A link counts by where it points, never followed (out of the bot's
    /// places, or into the kernel's views); a pipe is not opened.
    #[test]
    fn a_link_counts_by_its_target_and_a_pipe_is_not_opened() {
        let b = WithCache::new("python3 -m play");
        b.write("play.py", "print(0)");
        std::os::unix::fs::symlink("/proc/self/pagemap", b.dir.join("pages")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            b.dir.join("fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let spec = bot(&b.dir, &["python3", "-m", "play"]);
        let first = fingerprint(&spec);
        std::fs::remove_file(b.dir.join("pages")).unwrap();
        std::os::unix::fs::symlink("/proc/self/maps", b.dir.join("pages")).unwrap();
        assert_ne!(fingerprint(&spec), first);
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
