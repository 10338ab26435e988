//! ARCHITECTURE.md's code map names every module: a file added, moved or split under `src/`
//! without its line in the map fails here, so the map stays true in the same commit.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_code_map_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let start = text.find("## Code map").expect("a `## Code map` section");
    let end = text[start..]
        .find("\n## ")
        .map_or(text.len(), |e| start + e);
    // One block a layer or module: from a line starting `**name**` to the next.
    let map = &text[start..end];
    let blocks: Vec<&str> = map.split("\n**").collect();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut missing = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root.join("src")).unwrap();
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = parts.last().unwrap().clone();
        if parts.len() == 1 {
            // Top-level modules have a block of their own; lib.rs and main.rs are the crate.
            if name != "lib.rs" && name != "main.rs" && !map.contains(&format!("(`src/{name}`")) {
                missing.push(format!("src/{name}"));
            }
            continue;
        }
        let key = format!("(`src/{}/", parts[0]);
        let Some(block) = blocks.iter().find(|b| b.contains(&key)) else {
            missing.push(format!(
                "src/{} (no block for the folder)",
                relative.display()
            ));
            continue;
        };
        // A folder's mod.rs is the folder's block itself.
        if name != "mod.rs"
            && !block.contains(&format!("`{name}`"))
            && !block.contains(&format!("/{name}`"))
        {
            missing.push(format!("src/{}", relative.display()));
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's code map does not name: {}",
        missing.join(", ")
    );
}
