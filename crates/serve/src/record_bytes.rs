//! A change record's payload as bytes: the ops of one change set, encoded as the snapshot
//! encodes entities, read back without parsing text.
//!
//! Layout (`n`, `str`, `value` and the type tags as in `snapshot`):
//!
//! ```text
//! record = 0x01 · ops:n · op{ops}
//! op     = 0 · table:str                              (CreateTable)
//!        | 1 · table:str                              (DeleteTable)
//!        | 2 · table:str · entity                     (Put)
//!        | 3 · table:str · PartitionKey:str · RowKey:str   (Delete)
//!        | 4 · properties:str (JSON, as Set Table Service Properties left them)
//!        | 5 · table:str · acl:str (JSON list)         (SetAcl)
//! entity = PartitionKey:str · RowKey:str · Timestamp:i64 · properties:n
//!          · (name:str · tag:u8 · value){properties}
//! ```
//!
//! Earlier servers wrote a record as the JSON of its ops, which starts with `[`; [`decode`]
//! reads both, so their logs replay as they are.

use super::record::Op;
use super::snapshot::{put_len, put_str, put_value, Reader};
use tablescope_engine::{DateTime, Entity, PropertyName, ValueRef};

/// The first byte of a record in this layout (a JSON record starts with `[`).
const VERSION: u8 = 1;

const CREATE_TABLE: u8 = 0;
const DELETE_TABLE: u8 = 1;
const PUT: u8 = 2;
const DELETE: u8 = 3;
const SET_SERVICE_PROPERTIES: u8 = 4;
const SET_ACL: u8 = 5;

/// The payload of one record holding `ops`.
pub fn encode(ops: &[Op]) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(64 * ops.len() + 8);
    out.push(VERSION);
    put_len(&mut out, ops.len());
    for op in ops {
        match op {
            Op::CreateTable { table } => {
                out.push(CREATE_TABLE);
                put_str(&mut out, table);
            }
            Op::DeleteTable { table } => {
                out.push(DELETE_TABLE);
                put_str(&mut out, table);
            }
            Op::Put { table, entity } => {
                out.push(PUT);
                put_str(&mut out, table);
                put_str(&mut out, &entity.partition_key);
                put_str(&mut out, &entity.row_key);
                // `ops` reads every written entity back from the account: it has one.
                let ticks = entity.timestamp.map_or(i64::MIN, DateTime::ticks);
                out.extend_from_slice(&ticks.to_le_bytes());
                put_len(&mut out, entity.properties.len());
                for (name, value) in &entity.properties {
                    put_str(&mut out, name);
                    put_value(&mut out, ValueRef::from(value));
                }
            }
            Op::Delete {
                table,
                partition_key,
                row_key,
            } => {
                out.push(DELETE);
                put_str(&mut out, table);
                put_str(&mut out, partition_key);
                put_str(&mut out, row_key);
            }
            Op::SetServiceProperties { properties } => {
                out.push(SET_SERVICE_PROPERTIES);
                put_str(&mut out, &serde_json::to_string(properties)?);
            }
            Op::SetAcl { table, acl } => {
                out.push(SET_ACL);
                put_str(&mut out, table);
                put_str(&mut out, &serde_json::to_string(acl)?);
            }
        }
    }
    Ok(out)
}

/// The ops of a record's payload, in this layout or as JSON; what is wrong otherwise.
pub fn decode(payload: &[u8]) -> Result<Vec<Op>, String> {
    match payload.first() {
        Some(&VERSION) => {}
        _ => {
            return serde_json::from_slice::<Vec<Op>>(payload).map_err(|e| e.to_string());
        }
    }
    let mut r = Reader {
        bytes: payload,
        at: 1,
    };
    let ops = read_ops(&mut r).map_err(|e| format!("at byte {} of the record: {e}", r.at))?;
    if r.at != payload.len() {
        return Err(format!(
            "at byte {} of the record: bytes follow its last op",
            r.at
        ));
    }
    Ok(ops)
}

fn read_ops(r: &mut Reader) -> Result<Vec<Op>, String> {
    let count = r.len()?;
    let mut ops = Vec::with_capacity(count.min(r.bytes.len()));
    // Entities of one record usually share their property names: one allocation each.
    let mut names: Vec<PropertyName> = Vec::new();
    for _ in 0..count {
        let tag = r.take(1)?[0];
        let op = match tag {
            CREATE_TABLE => Op::CreateTable {
                table: r.str()?.to_string(),
            },
            DELETE_TABLE => Op::DeleteTable {
                table: r.str()?.to_string(),
            },
            PUT => {
                let table = r.str()?.to_string();
                let partition_key = r.str()?.to_string();
                let row_key = r.str()?.to_string();
                let timestamp = DateTime::from_ticks(r.i64()?).ok_or("a Timestamp out of range")?;
                let n = r.len()?;
                let mut properties = Vec::with_capacity(n.min(256));
                for _ in 0..n {
                    let name = r.str()?;
                    if matches!(name, "PartitionKey" | "RowKey" | "Timestamp")
                        || name.starts_with("odata.")
                    {
                        return Err(format!("a property is named {name}"));
                    }
                    if properties
                        .iter()
                        .any(|(n, _): &(PropertyName, _)| &**n == name)
                    {
                        return Err(format!("property {name} is stored twice"));
                    }
                    let name = match names.iter().find(|n| &***n == name) {
                        Some(n) => n.clone(),
                        None => {
                            let n = PropertyName::from(name);
                            names.push(n.clone());
                            n
                        }
                    };
                    let value = r.value().map_err(|e| format!("{name}: {e}"))?;
                    properties.push((name, value));
                }
                Op::Put {
                    table,
                    entity: Entity {
                        partition_key,
                        row_key,
                        timestamp: Some(timestamp),
                        properties,
                    },
                }
            }
            DELETE => Op::Delete {
                table: r.str()?.to_string(),
                partition_key: r.str()?.to_string(),
                row_key: r.str()?.to_string(),
            },
            SET_SERVICE_PROPERTIES => Op::SetServiceProperties {
                properties: serde_json::from_str(r.str()?).map_err(|e| e.to_string())?,
            },
            SET_ACL => Op::SetAcl {
                table: r.str()?.to_string(),
                acl: serde_json::from_str(r.str()?).map_err(|e| e.to_string())?,
            },
            tag => return Err(format!("an unknown op {tag}")),
        };
        ops.push(op);
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::{Guid, Value};

    fn put() -> Op {
        let mut entity = Entity::new("p", "r")
            .with("S", Value::String("é\n".into()))
            .with("I", Value::Int32(-1))
            .with("L", Value::Int64(i64::MIN))
            .with("D", Value::Double(f64::MAX))
            .with("B", Value::Boolean(false))
            .with("T", Value::DateTime(DateTime::MIN))
            .with("G", Value::Guid(Guid([9; 16])))
            .with("X", Value::Binary(vec![1, 2, 3].into()));
        entity.timestamp = DateTime::from_ticks(638_000_000_000_000_000);
        Op::Put {
            table: "Tab".into(),
            entity,
        }
    }

    #[test]
    fn every_op_round_trips_and_a_cut_record_is_refused() {
        let ops = vec![
            Op::CreateTable {
                table: "Tab".into(),
            },
            put(),
            put(),
            Op::Delete {
                table: "Tab".into(),
                partition_key: "p".into(),
                row_key: "".into(),
            },
            Op::SetServiceProperties {
                properties: Default::default(),
            },
            Op::SetAcl {
                table: "Tab".into(),
                acl: vec![],
            },
            Op::DeleteTable {
                table: "Tab".into(),
            },
        ];
        let bytes = encode(&ops).unwrap();
        assert_eq!(bytes[..2], [VERSION, 7]);
        assert_eq!(decode(&bytes).unwrap(), ops);
        for end in 1..bytes.len() {
            assert!(decode(&bytes[..end]).is_err(), "cut at {end}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode(&longer).err(),
            Some(format!(
                "at byte {} of the record: bytes follow its last op",
                bytes.len()
            ))
        );
    }

    #[test]
    fn a_record_of_an_earlier_server_is_its_json() {
        let ops = vec![put()];
        let text = serde_json::to_vec(&ops).unwrap();
        assert_eq!(text[0], b'[');
        assert_eq!(decode(&text).unwrap(), ops);
        assert!(decode(b"[{\"op\":\"nothing\"}]")
            .unwrap_err()
            .starts_with("unknown variant `nothing`"));
    }

    #[test]
    fn a_system_property_or_a_name_twice_is_refused() {
        let mut bytes = vec![VERSION, 1, PUT];
        for s in ["Tab", "p", "r"] {
            put_str(&mut bytes, s);
        }
        bytes.extend_from_slice(&0i64.to_le_bytes());
        let mut twice = bytes.clone();
        put_len(&mut bytes, 1);
        put_str(&mut bytes, "RowKey");
        bytes.extend_from_slice(&[1, 0, 0, 0, 0]);
        assert_eq!(
            decode(&bytes).err(),
            Some("at byte 27 of the record: a property is named RowKey".into())
        );
        put_len(&mut twice, 2);
        for _ in 0..2 {
            put_str(&mut twice, "N");
            twice.extend_from_slice(&[1, 0, 0, 0, 0]);
        }
        assert_eq!(
            decode(&twice).err(),
            Some("at byte 29 of the record: property N is stored twice".into())
        );
    }
}
