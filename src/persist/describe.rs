//! The changes a failed save left off the disk, in words (`Persist::unsaved`).

/// One change in words, for telling the user what is not on disk.
pub fn change(change: &crate::engine::Change) -> Vec<String> {
    use crate::engine::Change;
    let wrote = |table: &str, partition_key: &str, row_key: &str| {
        format!("wrote ('{partition_key}', '{row_key}') in {table}")
    };
    vec![match change {
        Change::TableCreated { table } => format!("created table {table}"),
        Change::TableDeleted { table } => format!("deleted table {table}"),
        Change::EntityWritten {
            table,
            partition_key,
            row_key,
        } => wrote(table, partition_key, row_key),
        Change::EntityDeleted {
            table,
            partition_key,
            row_key,
        } => format!("deleted ('{partition_key}', '{row_key}') in {table}"),
        Change::RowsInserted {
            table,
            partition_key,
            row_keys,
        } => {
            return row_keys
                .iter()
                .map(|row_key| wrote(table, partition_key, row_key.as_str()))
                .collect()
        }
        Change::AccountReplaced => "replaced every table (import or reset)".into(),
        Change::ServicePropertiesSet => "set the service properties".into(),
        Change::AclSet { table } => format!("set the stored access policies of {table}"),
    }]
}
