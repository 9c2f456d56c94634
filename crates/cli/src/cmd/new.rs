//! `dojo new GAME NAME`: writes a starter bot (`crate::starter`) into a
//! new directory. The files are written into a hidden directory beside
//! the target and moved into place in one rename, so an error leaves
//! nothing behind, and a directory that is there already is never
//! written into unless it is empty. A name the bots directory already has
//! is refused: a bare name finds `./NAME` first, so the suggested match
//! against that bot would play the new bot against itself.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::args::NewArgs;
use crate::games;
use crate::starter::{self, Template};

pub fn run(bots_dir: &Path, a: &NewArgs) -> Result<ExitCode> {
    dojo_runner::check_name(&a.name).map_err(anyhow::Error::msg)?;
    check_not_taken(bots_dir, &a.name)?;
    let starter = games::cli(a.game).starter();
    let Some(template) = starter.template(a.lang) else {
        bail!(
            "no {} starter bot for {} yet (there are: {})",
            a.lang.name(),
            a.game,
            starter
                .templates
                .iter()
                .map(|t| t.lang.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let dir = a.dir.clone().unwrap_or_else(|| PathBuf::from(&a.name));
    check_target(&dir)?;
    write(&dir, template, &a.name)?;

    let shown = shown_dir(&dir);
    outln!(
        "created {} bot `{}` ({}) in {}/",
        a.game,
        a.name,
        a.lang.name(),
        shown
    );
    for (path, _) in template.files {
        outln!("  {shown}/{path}");
    }
    if !on_path(a.lang.tool()) {
        outln!(
            "note: `{}` is not on PATH here; the bot needs it to {}",
            a.lang.tool(),
            if template.files.iter().any(|(_, t)| t.contains("\nbuild = ")) {
                "build"
            } else {
                "run"
            }
        );
    }
    let try_it: Vec<String> = std::iter::once("dojo")
        .chain(starter.try_it.iter().copied())
        .map(|w| w.replace("{dir}", &shown))
        .collect();
    outln!("next: {}", dojo_games::view::shell_line(&try_it));
    outln!("the protocol is explained in the bot's comments and in docs/protocols.md");
    Ok(ExitCode::SUCCESS)
}

/// Refuses `name` when the bots directory has a bot of that name: a bare
/// `NAME` means `./NAME` once that holds a bot.toml (the current directory
/// is looked at first), so that bot could no longer be named, and
/// `dojo match GAME ./NAME NAME` would play the new bot against itself.
fn check_not_taken(bots_dir: &Path, name: &str) -> Result<()> {
    let taken = bots_dir.join(name);
    if taken.is_dir() {
        bail!(
            "{name} is the name of a bot in the bots directory ({}): a bare `{name}` would then find ./{name} first, and a match against {name} would play your bot against itself; give another NAME, such as {}",
            taken.display(),
            other_name(name)
        );
    }
    Ok(())
}

/// A name to suggest in place of `name`: `my-NAME`, kept within the
/// name rule's 64 characters.
fn other_name(name: &str) -> String {
    let mut other = format!("my-{name}");
    other.truncate(64);
    other
}

/// Refuses a target that exists and is not an empty directory, or whose
/// parent directory does not exist (only the bot's own directory is
/// made).
fn check_target(dir: &Path) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => {
            let mut entries =
                std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
            if entries.next().is_some() {
                bail!(
                    "{} already exists and is not empty: give another NAME or --dir PATH",
                    dir.display()
                );
            }
        }
        Ok(_) => bail!(
            "{} already exists and is not a directory: give another NAME or --dir PATH",
            dir.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("looking at {}", dir.display())),
    }
    let parent = parent_of(dir);
    if !parent.is_dir() {
        bail!(
            "{} does not exist: dojo new makes only the bot's own directory ({})",
            parent.display(),
            dir.display()
        );
    }
    Ok(())
}

/// The directory `dir` is made in (`.` for a bare name).
fn parent_of(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `template`'s files for the bot `name` into a hidden directory
/// beside `dir`, then renames it to `dir` (which replaces `dir` when it is
/// an empty directory). On any error the hidden directory is removed.
fn write(dir: &Path, template: &Template, name: &str) -> Result<()> {
    let leaf = dir
        .file_name()
        .map_or_else(|| "bot".into(), |n| n.to_string_lossy().into_owned());
    let staging = parent_of(dir).join(format!(".{leaf}.dojo-new-{}", std::process::id()));
    std::fs::create_dir(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let written = (|| -> Result<()> {
        for (path, text) in template.files {
            let file = staging.join(path);
            if let Some(sub) = file.parent() {
                std::fs::create_dir_all(sub)
                    .with_context(|| format!("creating {}", sub.display()))?;
            }
            std::fs::write(&file, starter::fill(text, name))
                .with_context(|| format!("writing {}", dir.join(path).display()))?;
        }
        std::fs::rename(&staging, dir).with_context(|| format!("creating {}", dir.display()))
    })();
    if written.is_err() {
        // Best effort: the error being reported is the one that matters.
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

/// `dir` as a user types it to mean a directory: a bare relative name gets
/// `./`, so it never reads as the name of a bot under the bots directory.
fn shown_dir(dir: &Path) -> String {
    let text = dir.display().to_string();
    let text = text.trim_end_matches('/').to_owned();
    if dir.is_absolute() || text.starts_with("./") || text.starts_with("../") {
        text
    } else {
        format!("./{text}")
    }
}

/// Whether `program` is an executable file in a directory of PATH.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|d| {
            std::fs::metadata(d.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_directory_is_shown_as_a_path() {
        assert_eq!(shown_dir(Path::new("my-bot")), "./my-bot");
        assert_eq!(shown_dir(Path::new("bots/my-bot/")), "./bots/my-bot");
        assert_eq!(shown_dir(Path::new("./my-bot")), "./my-bot");
        assert_eq!(shown_dir(Path::new("../my-bot")), "../my-bot");
        assert_eq!(shown_dir(Path::new("/tmp/my-bot")), "/tmp/my-bot");
    }

    #[test]
    fn a_bare_name_is_made_in_the_current_directory() {
        assert_eq!(parent_of(Path::new("x")), PathBuf::from("."));
        assert_eq!(parent_of(Path::new("a/x")), PathBuf::from("a"));
    }
}
