//! The playground's workspace export format (`engine::snapshot`), written without holding a
//! second copy of the account: `tablescope-serve export` writes it, and snapshots of earlier
//! servers (`snapshot-<g>.<crc>.json`) are in it, so it is read too.

use super::record::Tables;
use std::io::{self, Read, Write};
use tablescope_engine::json::decode_stored;
use tablescope_engine::snapshot::{Snapshot, FORMAT, VERSION};
use tablescope_engine::{Account, Entity, RawEntity, ServiceProperties, Target};

/// Writes the account as the playground's export writes it (`serde_json::to_string` of
/// [`Account::export`]), byte for byte, one entity at a time.
pub fn write(account: &Account, out: &mut impl Write) -> io::Result<()> {
    write!(out, "{{\"format\":")?;
    serde_json::to_writer(&mut *out, FORMAT)?;
    write!(out, ",\"version\":{VERSION},")?;
    if account.target() != Target::TableStorage {
        out.write_all(b"\"target\":")?;
        serde_json::to_writer(&mut *out, &account.target())?;
        out.write_all(b",")?;
    }
    let properties = account.service_properties();
    if *properties != ServiceProperties::default() {
        out.write_all(b"\"serviceProperties\":")?;
        serde_json::to_writer(&mut *out, properties)?;
        out.write_all(b",")?;
    }
    out.write_all(b"\"tables\":[")?;
    for (i, table) in account.tables().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{\"name\":")?;
        serde_json::to_writer(&mut *out, &table.name)?;
        if !table.acl().is_empty() {
            out.write_all(b",\"acl\":")?;
            serde_json::to_writer(&mut *out, table.acl())?;
        }
        out.write_all(b",\"entities\":[")?;
        let mut first = true;
        for (pk, partition) in table.partitions() {
            for (rk, stored) in &partition.rows {
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                let entity = Entity {
                    partition_key: pk.as_str().to_string(),
                    row_key: rk.as_str().to_string(),
                    timestamp: Some(stored.timestamp),
                    properties: stored.properties.to_vec(),
                };
                serde_json::to_writer(&mut *out, &RawEntity::from_entity(&entity))?;
            }
        }
        out.write_all(b"]}")?;
    }
    out.write_all(b"]}")
}

/// Reads an export into [`Tables`], keeping every entity's Timestamp.
pub fn read(input: impl Read) -> Result<Tables, String> {
    let snapshot: Snapshot =
        serde_json::from_reader(input).map_err(|e| format!("not a readable export: {e}"))?;
    if snapshot.format != FORMAT || snapshot.version != VERSION {
        return Err(format!("not a {FORMAT} version {VERSION} export"));
    }
    let mut tables = Tables::for_target(snapshot.target);
    if let Some(properties) = snapshot.service_properties {
        tables.set_properties(properties);
    }
    for table in snapshot.tables {
        tables.add_table(&table.name)?;
        tables.table_mut(&table.name)?.restore_acl(table.acl);
        for raw in table.entities {
            let entity = decode_stored(&raw)
                .map_err(|e| format!("table '{}': {}", table.name, e.message))?;
            tables.put(&table.name, entity)?;
        }
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::{FixedClock, Value};

    /// The snapshot tests' account: every Edm type, ACLs, CORS, non-ASCII keys.
    fn sample() -> Account {
        crate::snapshot::tests::sample(tablescope_engine::Target::TableStorage)
    }

    #[test]
    fn writes_what_the_playground_exports() {
        let account = sample();
        let mut out = Vec::new();
        write(&account, &mut out).unwrap();
        let expected = serde_json::to_string(&account.export()).unwrap();
        let written = String::from_utf8(out).unwrap();
        assert_eq!(written, expected);
        assert!(written.starts_with(r#"{"format":"tablescope-account","version":1,"serviceProperties":{"logging":{"version":"1.0","delete":false,"read":false,"write":false,"retentionPolicy":{"enabled":false}},"#));
        assert!(written.contains(r#"{"name":"Zeta","acl":[{"id":"readers","accessPolicy":{"expiry":"2030-01-01T00:00:00.0000000Z","permission":"r"}}],"entities":["#));
        let empty = Account::default();
        let mut out = Vec::new();
        write(&empty, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"format":"tablescope-account","version":1,"tables":[]}"#
        );
    }

    #[test]
    fn reads_back_the_same_account() {
        let account = sample();
        let mut out = Vec::new();
        write(&account, &mut out).unwrap();
        let tables = read(&out[..]).unwrap();
        assert_eq!(tables.entity_count(), 9);
        let mut back = Account::default();
        tables.restore(&mut back);
        assert_eq!(
            serde_json::to_string(&back.export()).unwrap(),
            serde_json::to_string(&account.export()).unwrap()
        );
    }

    #[test]
    fn a_cosmos_account_keeps_its_target_and_its_case_sensitive_names() {
        let mut account = Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
        account.create_table("Orders").unwrap();
        account.create_table("orders").unwrap();
        account
            .insert("orders", Entity::new("p", "r").with("N", Value::Int32(1)))
            .unwrap();
        let mut out = Vec::new();
        write(&account, &mut out).unwrap();
        let written = String::from_utf8(out).unwrap();
        assert_eq!(written, serde_json::to_string(&account.export()).unwrap());
        assert!(
            written.starts_with(
                r#"{"format":"tablescope-account","version":1,"target":"cosmosTable","tables":["#
            ),
            "{written}"
        );
        let tables = read(written.as_bytes()).unwrap();
        assert_eq!(tables.target(), Target::CosmosTable);
        assert_eq!(tables.entity_count(), 1);
        let mut back = Account::default();
        tables.restore(&mut back);
        assert_eq!(back.target(), Target::CosmosTable);
        let mut names: Vec<&str> = back.tables().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["Orders", "orders"]);
        assert_eq!(back.table("orders").unwrap().entity_count(), 1);
        assert_eq!(back.table("Orders").unwrap().entity_count(), 0);
    }

    #[test]
    fn refuses_what_is_not_an_export() {
        assert_eq!(
            read(&br#"{"format":"other","version":1,"tables":[]}"#[..]).err(),
            Some("not a tablescope-account version 1 export".to_string())
        );
        let twice = br#"{"format":"tablescope-account","version":1,"tables":[{"name":"T","entities":[]},{"name":"t","entities":[]}]}"#;
        assert_eq!(
            read(&twice[..]).err(),
            Some("table 't' appears twice".to_string())
        );
    }
}
