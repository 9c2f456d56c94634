//! The JSON a league or a game writes: reading it, and comparing two runs
//! apart from their `timing`.

use std::path::Path;

use serde_json::Value;

/// Reads a JSON file (a record, a report, `league.json`).
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The lines of a league directory's `games.jsonl`, each a JSON object;
/// the file must end with a whole line.
pub fn games(dir: &Path) -> Vec<Value> {
    let path = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert!(text.is_empty() || text.ends_with('\n'), "torn last line");
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect()
}

/// `value` serialized without its top-level `timing` key, which is the only
/// part allowed to differ between two runs of the same game or league.
pub fn without_timing(mut value: Value) -> String {
    let removed = value
        .as_object_mut()
        .expect("a JSON object")
        .remove("timing");
    assert!(removed.is_some(), "no timing key in {value}");
    serde_json::to_string(&value).expect("serializable")
}

/// Reads a JSON file and drops its `timing` (see [`without_timing`]).
pub fn json_without_timing(path: &Path) -> String {
    without_timing(read_json(path))
}

/// A league directory's `report.json` up to (not including) its `timing`
/// section, byte for byte (where [`json_without_timing`] compares values).
pub fn report_sans_timing(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json exists");
    let cut = text
        .find("\n  \"timing\"")
        .expect("report has a timing section");
    text[..cut].to_string()
}

/// The JSON of an HTML page's data block (the `dojo-data` script), which
/// must hold no `<` (it could close the script early).
pub fn data_block(html: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"dojo-data\">";
    let start = html.find(open).expect("a data block") + open.len();
    let end = start + html[start..].find("</script>").expect("the block ends");
    let text = &html[start..end];
    assert!(!text.contains('<'), "a '<' inside the data block");
    serde_json::from_str(text).expect("the data block is JSON")
}
