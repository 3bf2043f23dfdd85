//! "Show as code" for a Cosmos DB for Table account: the connection string form and every form
//! of one request are exactly the text in tests/code/cosmos/ (`UPDATE_GOLDEN=1 cargo test
//! --test cosmos_golden` rewrites them; review the diff); a storage account's forms are the
//! plain `show` forms.

use std::path::PathBuf;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::{Request, Target};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/code/cosmos")
}

fn check(name: &str, text: &str) {
    let path = golden_dir().join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(text, want, "{name}");
}

#[test]
fn the_connection_strings_of_both_targets() {
    assert_eq!(
        code::connection_string(Target::CosmosTable, "contoso"),
        "DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;\
         TableEndpoint=https://contoso.table.cosmos.azure.com:443/;"
    );
    assert_eq!(
        code::connection_string(Target::TableStorage, "contoso"),
        "DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;\
         EndpointSuffix=core.windows.net"
    );
}

#[test]
fn every_form_on_cosmos_matches_its_golden_file() {
    let request = Request::DeleteTable {
        table: "Employees".into(),
    };
    for form in Form::ALL {
        let text = code::show_for(&request, form, Target::CosmosTable, "contoso").unwrap();
        check(&format!("delete_table.{}", form.extension()), &text);
    }
}

#[test]
fn storage_forms_are_the_plain_forms() {
    let request = Request::DeleteTable {
        table: "Employees".into(),
    };
    for form in Form::ALL {
        assert_eq!(
            code::show_for(&request, form, Target::TableStorage, "contoso"),
            code::show(&request, form),
            "{form:?}"
        );
    }
}
