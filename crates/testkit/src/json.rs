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

/// `value` serialized without its top-level `timing` key and, in a
/// report, each standing's measured figures ([`without_measurements`]):
/// the only parts allowed to differ between two runs of the same game or
/// league.
pub fn without_timing(mut value: Value) -> String {
    let removed = value
        .as_object_mut()
        .expect("a JSON object")
        .remove("timing");
    assert!(removed.is_some(), "no timing key in {value}");
    without_measurements(&mut value);
    serde_json::to_string(&value).expect("serializable")
}

/// The keys of a report's standing that are measured (move times, first
/// answers' times, memory peak), not derived from the games' results:
/// they differ between two runs of the same games, like `timing`.
pub const MEASURED_STANDING_KEYS: [&str; 3] = ["moves", "startup_answers", "peak_memory_mib"];

/// Removes [`MEASURED_STANDING_KEYS`] from each of a report's standings
/// (nothing else: a value without standings is left as it is).
pub fn without_measurements(report: &mut Value) {
    if let Some(standings) = report.get_mut("standings").and_then(Value::as_array_mut) {
        for s in standings.iter_mut().filter_map(Value::as_object_mut) {
            for key in MEASURED_STANDING_KEYS {
                s.remove(key);
            }
        }
    }
}

/// Reads a JSON file and drops its `timing` (see [`without_timing`]).
pub fn json_without_timing(path: &Path) -> String {
    without_timing(read_json(path))
}

/// A league directory's `report.json` up to (not including) its `timing`
/// section, byte for byte apart from each standing's measured figures
/// ([`MEASURED_STANDING_KEYS`], cut out with the line before's comma):
/// where [`json_without_timing`] compares values, this also compares the
/// order and formatting of everything else.
pub fn report_sans_timing(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json exists");
    let cut = text
        .find("\n  \"timing\"")
        .expect("report has a timing section");
    cut_measurements(&text[..cut])
}

/// `text` (pretty-printed JSON) without the measured keys of its
/// standings: each member named in [`MEASURED_STANDING_KEYS`], whatever
/// lines its value spans, is dropped together with the comma that
/// joined it to its neighbours.
fn cut_measurements(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let measured = MEASURED_STANDING_KEYS
            .iter()
            .any(|k| trimmed.starts_with(&format!("\"{k}\": ")));
        if !measured {
            kept.push(line.to_owned());
            i += 1;
            continue;
        }
        // The member ends where the indentation returns to its own with
        // the value closed: a scalar on this line, or an object's `}`.
        let indent = line.len() - trimmed.len();
        let mut end = i;
        if trimmed.ends_with('{') || trimmed.ends_with('[') {
            while end + 1 < lines.len() {
                end += 1;
                let l = lines[end];
                if l.len() - l.trim_start().len() == indent {
                    break;
                }
            }
        }
        let last_of_object = !lines[end].trim_end().ends_with(',');
        if last_of_object && let Some(prev) = kept.last_mut() {
            // The member before it is now the last one: no comma after it.
            if let Some(stripped) = prev.strip_suffix(',') {
                *prev = stripped.to_owned();
            }
        }
        i = end + 1;
    }
    kept.join("\n")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_members_are_cut_with_their_commas_leaving_the_rest_byte_for_byte() {
        let report = serde_json::json!({"standings": [
            {"name": "a", "moves": {"count": 3, "wall_ms": {"p50": 1.0}},
             "startup_answers": {"count": 1, "wall_ms": {"max": 9.0}}, "peak_memory_mib": 2.5},
            {"name": "b", "moves": null, "peak_memory_mib": null, "rank": 2},
        ]});
        let mut bare = report.clone();
        without_measurements(&mut bare);
        let text = serde_json::to_string_pretty(&report).unwrap();
        assert_eq!(
            cut_measurements(&text),
            serde_json::to_string_pretty(&bare).unwrap()
        );
    }
}
