use super::*;
use tablescope_engine::{
    AccessPolicy, CorsRule, FixedClock, PropertiesUpdate, SignedIdentifier as Identifier,
};

/// Every Edm type, two tables with an ACL and an empty one, CORS rules, non-ASCII keys.
pub(crate) fn sample(target: Target) -> Account {
    let mut account = Account::for_target(target, Box::new(FixedClock::default()));
    account.create_table("Zeta").unwrap();
    account.create_table("alpha").unwrap();
    account.create_table("Empty").unwrap();
    for (pk, rk) in [("b", "2"), ("a", "1"), ("b", "1"), ("é'\"", "")] {
        let e = Entity::new(pk, rk)
            .with("Count", Value::Int64(i64::MAX))
            .with("Small", Value::Int32(-7))
            .with("Ratio", Value::Double(0.1))
            .with("Text", Value::String("ü\n\"".into()))
            .with("Raw", Value::Binary(vec![0, 255].into()))
            .with("On", Value::Boolean(true))
            .with(
                "When",
                Value::DateTime(DateTime::parse("2031-02-03T04:05:06.7654321Z").unwrap()),
            )
            .with("Ident", Value::Guid(Guid([7; 16])));
        account.insert("Zeta", e.clone()).unwrap();
        account.insert("alpha", e).unwrap();
    }
    // Another shape in the same partition: only some of the names.
    account
        .insert(
            "Zeta",
            Entity::new("b", "3").with("Ratio", Value::Double(-0.0)),
        )
        .unwrap();
    let policy = Identifier {
        id: "readers".into(),
        access_policy: Some(AccessPolicy {
            start: None,
            expiry: Some(DateTime::parse("2030-01-01T00:00:00Z").unwrap()),
            permission: Some("r".into()),
        }),
    };
    account.set_table_acl("Zeta", vec![policy]).unwrap();
    let rule = CorsRule {
        allowed_origins: vec!["http://localhost:8080".into()],
        allowed_methods: vec!["GET".into()],
        allowed_headers: vec!["*".into()],
        exposed_headers: vec![],
        max_age_in_seconds: 60,
    };
    let update = PropertiesUpdate {
        cors: Some(vec![rule]),
        ..PropertiesUpdate::default()
    };
    account.set_service_properties(&update).unwrap();
    account
}

fn bytes_of(account: &Account) -> Vec<u8> {
    let mut out = Vec::new();
    write(account, &mut out).unwrap();
    out
}

fn export_text(account: &Account) -> String {
    serde_json::to_string(&account.export()).unwrap()
}

#[test]
fn reads_back_the_same_account_on_either_target() {
    for target in [Target::TableStorage, Target::CosmosTable] {
        let account = sample(target);
        let bytes = bytes_of(&account);
        assert!(bytes.starts_with(MAGIC));
        let tables = read(&bytes).unwrap();
        assert_eq!(tables.entity_count(), 9);
        assert_eq!(tables.target(), target);
        let mut back = Account::default();
        tables.restore(&mut back);
        assert_eq!(export_text(&back), export_text(&account));
        assert_eq!(back.target(), target);
        assert_eq!(back.table_acl("Zeta").unwrap()[0].id, "readers");
        assert_eq!(back.service_properties().cors[0].max_age_in_seconds, 60);
        // The next write's Timestamp comes after every one loaded.
        let latest = account
            .tables()
            .flat_map(|t| t.partitions().values())
            .flat_map(|p| p.rows.iter().map(|(_, s)| s.timestamp))
            .max()
            .unwrap();
        let t = back.insert("alpha", Entity::new("z", "z")).unwrap();
        assert!(t > latest);
    }
}

#[test]
fn an_empty_account_is_the_magic_its_meta_and_no_table() {
    let bytes = bytes_of(&Account::default());
    assert_eq!(bytes, b"TSSNAP\0\x01\x02{}\x00");
    assert_eq!(read(&bytes).unwrap().entity_count(), 0);
}

#[test]
fn every_truncation_is_refused_without_a_panic() {
    let bytes = bytes_of(&sample(Target::TableStorage));
    for end in 0..bytes.len() {
        assert!(read(&bytes[..end]).is_err(), "cut at {end}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        read(&longer).err(),
        Some(format!(
            "at byte {}: bytes follow the last table",
            bytes.len()
        ))
    );
}

#[test]
fn refuses_what_the_layout_does_not_allow() {
    assert_eq!(
        read(b"{\"format\":\"tablescope-account\"}").err(),
        Some("not a tablescope-serve snapshot (its first bytes are not TSSNAP)".into())
    );
    // One table "T", one partition "p" listing the name "N" twice.
    let mut partition = Vec::new();
    put_str(&mut partition, "p");
    put_len(&mut partition, 2);
    put_str(&mut partition, "N");
    put_str(&mut partition, "N");
    put_len(&mut partition, 0);
    let file = |partition: &[u8]| {
        let mut out = MAGIC.to_vec();
        put_str(&mut out, "{}");
        put_len(&mut out, 1);
        put_str(&mut out, "T");
        put_str(&mut out, "[]");
        put_len(&mut out, 1);
        put_len(&mut out, partition.len());
        out.extend_from_slice(partition);
        out
    };
    let at = file(&[]).len() - 1;
    assert_eq!(
        read(&file(&partition)).err(),
        Some(format!(
            "at byte {at}: table 'T': the property name N is listed twice"
        ))
    );
    // Two rows with the same RowKey, and a Boolean stored as 2.
    let row = |partition: &mut Vec<u8>, boolean: u8| {
        put_str(partition, "r");
        partition.extend_from_slice(&1i64.to_le_bytes());
        put_len(partition, 1);
        put_len(partition, 0);
        partition.extend_from_slice(&[BOOLEAN, boolean]);
    };
    let mut partition = Vec::new();
    put_str(&mut partition, "p");
    put_len(&mut partition, 1);
    put_str(&mut partition, "On");
    put_len(&mut partition, 2);
    row(&mut partition, 1);
    row(&mut partition, 1);
    assert_eq!(
        read(&file(&partition)).err(),
        Some(format!(
            "at byte {at}: table 'T': PartitionKey 'p', RowKey 'r' is stored twice"
        ))
    );
    let mut partition = Vec::new();
    put_str(&mut partition, "p");
    put_len(&mut partition, 1);
    put_str(&mut partition, "Timestamp");
    put_len(&mut partition, 0);
    assert_eq!(
        read(&file(&partition)).err(),
        Some(format!(
            "at byte {at}: table 'T': a property is named Timestamp"
        ))
    );
    let mut partition = Vec::new();
    put_str(&mut partition, "p");
    put_len(&mut partition, 1);
    put_str(&mut partition, "On");
    put_len(&mut partition, 1);
    row(&mut partition, 2);
    assert_eq!(
        read(&file(&partition)).err(),
        Some(format!(
            "at byte {at}: table 'T': entity 0, On: a Boolean stored as 2"
        ))
    );
}

#[test]
fn a_damaged_length_is_refused_without_reserving_what_it_claims() {
    let mut out = MAGIC.to_vec();
    put_str(&mut out, "{}");
    put_len(&mut out, 1);
    put_str(&mut out, "T");
    put_str(&mut out, "[]");
    put_len(&mut out, 1);
    let at = out.len();
    put_len(&mut out, 1 << 40);
    out.extend_from_slice(b"just a few bytes");
    assert_eq!(
        read(&out).err(),
        Some(format!(
            "at byte {at}: table 'T': the partition ends after the file"
        ))
    );
}
