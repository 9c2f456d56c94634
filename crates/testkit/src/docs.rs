//! What the docs show, read as the tests that run it see it: fenced code
//! blocks and the shell commands in them, so a test runs a documented
//! command or script exactly as written.

use std::path::Path;

/// The fenced code blocks of the Markdown file `path` (relative to the
/// workspace root), in order, without their fences.
pub fn code_blocks(path: &str) -> Vec<String> {
    let file = crate::paths::root().join(path);
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(b) => blocks.push(b),
                None => current = Some(String::new()),
            }
        } else if let Some(b) = &mut current {
            b.push_str(line);
            b.push('\n');
        }
    }
    blocks
}

/// The `dojo ...` commands of a shell `block` (an `exec ` before one is
/// dropped), continuation lines joined.
pub fn dojo_commands(block: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = block.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        let line = line.strip_prefix("exec ").unwrap_or(line);
        if !line.starts_with("dojo ") {
            continue;
        }
        let mut cmd = line.to_owned();
        while cmd.ends_with('\\') {
            cmd.pop();
            cmd.push(' ');
            cmd.push_str(lines.next().unwrap_or_default().trim());
        }
        out.push(cmd);
    }
    out
}

/// The code block of `path` that contains every one of `markers`; panics
/// naming the markers when there is none.
pub fn block_with(path: &str, markers: &[&str]) -> String {
    code_blocks(path)
        .into_iter()
        .find(|b| markers.iter().all(|m| b.contains(m)))
        .unwrap_or_else(|| panic!("no code block in {path} contains all of {markers:?}"))
}

/// Writes `text` to `dir/name`, executable.
pub fn write_script(dir: &Path, name: &str, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("make the script executable");
}
