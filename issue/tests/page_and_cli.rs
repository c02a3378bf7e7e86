//! The page's worker sends the findings to the page's thread as JSON, and the page writes the
//! block there; `kpg share --issue` writes it at once. Both must give the same bytes.

#[test]
fn findings_that_crossed_as_json_give_the_block_the_cli_prints() {
    for lab in [
        "seed002-limits.yaml",
        "byoc-snapshot.yaml",
        "seed002-consolidation.yaml",
    ] {
        let path = format!("{}/../tests/labs/{lab}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the lab reads");
        let docs = kpg_share::split_documents(&text);
        let base = "https://example.com/kpg/";
        let direct = kpg_issue::issue(&docs, Some(180_000), base).expect("a block");
        let findings = kpg_issue::findings(&docs, Some(180_000)).expect("findings");
        let json = serde_json::to_string(&findings).expect("JSON");
        let crossed: kpg_issue::Findings = serde_json::from_str(&json).expect("read back");
        assert_eq!(kpg_issue::block(&crossed, base), direct, "{lab}");
    }
}
