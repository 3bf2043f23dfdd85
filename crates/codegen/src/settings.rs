//! The account's settings in every form: Get and Set Table Service Properties (logging,
//! hour and minute metrics, CORS rules) and Get and Set Table ACL (a table's stored access
//! policies). Each SDK writes only the parts an update gives, as the service keeps the rest.
//!
//! The SDKs' shapes: JavaScript and C# take a CORS rule's lists as one comma-separated
//! string each (the XML's own form); Python takes lists; Java takes strings. The HTTP form's
//! body is the service's XML (docs/service/settings.md), in the element order the service
//! answers with.

use super::literal::{quoted, quoted_list};
use std::collections::BTreeSet;
use tablescope_engine::settings::{Metrics, RetentionPolicy};
use tablescope_engine::{CorsRule, DateTime, PropertiesUpdate, SignedIdentifier};

/// A settings request, ready to print.
#[derive(Debug, Clone)]
pub(crate) enum Setting {
    GetProperties,
    SetProperties(PropertiesUpdate),
    GetAcl(String),
    SetAcl(String, Vec<SignedIdentifier>),
}

impl Setting {
    /// The HTTP request: method, path and query after the endpoint, and the XML body.
    pub(crate) fn http(&self) -> (&'static str, String, Option<String>) {
        match self {
            Setting::GetProperties => ("GET", "/?restype=service&comp=properties".into(), None),
            Setting::SetProperties(update) => (
                "PUT",
                "/?restype=service&comp=properties".into(),
                Some(properties_xml(update)),
            ),
            Setting::GetAcl(table) => ("GET", format!("/{table}?comp=acl"), None),
            Setting::SetAcl(table, list) => {
                ("PUT", format!("/{table}?comp=acl"), Some(acl_xml(list)))
            }
        }
    }
}

// ---- XML ----

const XML_DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";

/// Text as XML element content.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn element(out: &mut String, depth: usize, name: &str, text: &str) {
    let indent = "  ".repeat(depth);
    out.push_str(&format!("{indent}<{name}>{}</{name}>\n", escaped(text)));
}

fn retention_xml(out: &mut String, depth: usize, policy: &RetentionPolicy) {
    let indent = "  ".repeat(depth);
    out.push_str(&format!("{indent}<RetentionPolicy>\n"));
    element(out, depth + 1, "Enabled", &policy.enabled.to_string());
    if let Some(days) = policy.days {
        element(out, depth + 1, "Days", &days.to_string());
    }
    out.push_str(&format!("{indent}</RetentionPolicy>\n"));
}

fn metrics_xml(out: &mut String, name: &str, metrics: &Metrics) {
    out.push_str(&format!("  <{name}>\n"));
    element(out, 2, "Version", &metrics.version);
    element(out, 2, "Enabled", &metrics.enabled.to_string());
    if let Some(include) = metrics.include_apis {
        element(out, 2, "IncludeAPIs", &include.to_string());
    }
    retention_xml(out, 2, &metrics.retention_policy);
    out.push_str(&format!("  </{name}>\n"));
}

/// Set Table Service Properties' body: the parts the update gives.
fn properties_xml(update: &PropertiesUpdate) -> String {
    let mut out = String::from(XML_DECLARATION);
    out.push_str("<StorageServiceProperties>\n");
    if let Some(l) = &update.logging {
        out.push_str("  <Logging>\n");
        element(&mut out, 2, "Version", &l.version);
        element(&mut out, 2, "Read", &l.read.to_string());
        element(&mut out, 2, "Write", &l.write.to_string());
        element(&mut out, 2, "Delete", &l.delete.to_string());
        retention_xml(&mut out, 2, &l.retention_policy);
        out.push_str("  </Logging>\n");
    }
    if let Some(m) = &update.hour_metrics {
        metrics_xml(&mut out, "HourMetrics", m);
    }
    if let Some(m) = &update.minute_metrics {
        metrics_xml(&mut out, "MinuteMetrics", m);
    }
    match update.cors.as_deref() {
        None => {}
        Some([]) => out.push_str("  <Cors />\n"),
        Some(rules) => {
            out.push_str("  <Cors>\n");
            for rule in rules {
                out.push_str("    <CorsRule>\n");
                element(
                    &mut out,
                    3,
                    "AllowedMethods",
                    &rule.allowed_methods.join(","),
                );
                element(
                    &mut out,
                    3,
                    "AllowedOrigins",
                    &rule.allowed_origins.join(","),
                );
                element(
                    &mut out,
                    3,
                    "AllowedHeaders",
                    &rule.allowed_headers.join(","),
                );
                element(
                    &mut out,
                    3,
                    "ExposedHeaders",
                    &rule.exposed_headers.join(","),
                );
                element(
                    &mut out,
                    3,
                    "MaxAgeInSeconds",
                    &rule.max_age_in_seconds.to_string(),
                );
                out.push_str("    </CorsRule>\n");
            }
            out.push_str("  </Cors>\n");
        }
    }
    out.push_str("</StorageServiceProperties>");
    out
}

/// Set Table ACL's body: every identifier, in order.
fn acl_xml(list: &[SignedIdentifier]) -> String {
    let mut out = String::from(XML_DECLARATION);
    if list.is_empty() {
        out.push_str("<SignedIdentifiers />");
        return out;
    }
    out.push_str("<SignedIdentifiers>\n");
    for identifier in list {
        out.push_str("  <SignedIdentifier>\n");
        element(&mut out, 2, "Id", &identifier.id);
        if let Some(p) = &identifier.access_policy {
            out.push_str("    <AccessPolicy>\n");
            if let Some(start) = p.start {
                element(&mut out, 3, "Start", &start.to_string());
            }
            if let Some(expiry) = p.expiry {
                element(&mut out, 3, "Expiry", &expiry.to_string());
            }
            if let Some(permission) = &p.permission {
                element(&mut out, 3, "Permission", permission);
            }
            out.push_str("    </AccessPolicy>\n");
        }
        out.push_str("  </SignedIdentifier>\n");
    }
    out.push_str("</SignedIdentifiers>");
    out
}

// ---- JavaScript (@azure/data-tables) ----

pub(crate) fn javascript(setting: &Setting) -> String {
    match setting {
        Setting::GetProperties => "const properties = await serviceClient.getProperties();\n\
             console.log(properties);\n"
            .into(),
        Setting::SetProperties(update) => {
            let mut parts = Vec::new();
            if let Some(l) = &update.logging {
                parts.push(format!(
                    "  logging: {{\n    version: {},\n    read: {},\n    write: {},\n    delete: {},\n    retentionPolicy: {},\n  }},\n",
                    quoted(&l.version),
                    l.read,
                    l.write,
                    l.delete,
                    js_retention(&l.retention_policy)
                ));
            }
            for (name, metrics) in [
                ("hourMetrics", &update.hour_metrics),
                ("minuteMetrics", &update.minute_metrics),
            ] {
                if let Some(m) = metrics {
                    let include = m
                        .include_apis
                        .map(|i| format!("    includeAPIs: {i},\n"))
                        .unwrap_or_default();
                    parts.push(format!(
                        "  {name}: {{\n    version: {},\n    enabled: {},\n{include}    retentionPolicy: {},\n  }},\n",
                        quoted(&m.version),
                        m.enabled,
                        js_retention(&m.retention_policy)
                    ));
                }
            }
            if let Some(rules) = &update.cors {
                let rules: String = rules.iter().map(js_rule).collect();
                parts.push(if rules.is_empty() {
                    "  cors: [],\n".into()
                } else {
                    format!("  cors: [\n{rules}  ],\n")
                });
            }
            format!(
                "await serviceClient.setProperties({{\n{}}});\n",
                parts.concat()
            )
        }
        Setting::GetAcl(table) => format!(
            "const client = tableClient({});\n\
             const identifiers = await client.getAccessPolicy();\n\
             for (const identifier of identifiers) console.log(identifier);\n",
            quoted(table)
        ),
        Setting::SetAcl(table, list) => {
            let items: String = list
                .iter()
                .map(|i| {
                    let mut fields = vec![format!("id: {}", quoted(&i.id))];
                    if let Some(p) = &i.access_policy {
                        let mut policy = Vec::new();
                        if let Some(s) = p.start {
                            policy.push(format!("start: new Date({})", quoted(&s.to_string())));
                        }
                        if let Some(e) = p.expiry {
                            policy.push(format!("expiry: new Date({})", quoted(&e.to_string())));
                        }
                        if let Some(perm) = &p.permission {
                            policy.push(format!("permission: {}", quoted(perm)));
                        }
                        fields.push(format!("accessPolicy: {{ {} }}", policy.join(", ")));
                    }
                    format!("  {{ {} }},\n", fields.join(", "))
                })
                .collect();
            format!(
                "const client = tableClient({});\nawait client.setAccessPolicy([\n{items}]);\n",
                quoted(table)
            )
        }
    }
}

fn js_retention(p: &RetentionPolicy) -> String {
    match p.days {
        Some(days) => format!("{{ enabled: {}, days: {days} }}", p.enabled),
        None => format!("{{ enabled: {} }}", p.enabled),
    }
}

fn js_rule(rule: &CorsRule) -> String {
    format!(
        "    {{\n      allowedOrigins: {},\n      allowedMethods: {},\n      allowedHeaders: {},\n      exposedHeaders: {},\n      maxAgeInSeconds: {},\n    }},\n",
        quoted(&rule.allowed_origins.join(",")),
        quoted(&rule.allowed_methods.join(",")),
        quoted(&rule.allowed_headers.join(",")),
        quoted(&rule.exposed_headers.join(",")),
        rule.max_age_in_seconds
    )
}

// ---- Python (azure-data-tables) ----

/// The Python body; `imports` gathers what it names from `azure.data.tables` (and
/// `datetime`).
pub(crate) fn python(setting: &Setting, imports: &mut BTreeSet<&'static str>) -> String {
    match setting {
        Setting::GetProperties => "properties = service.get_service_properties()\n\
             print(properties)\n"
            .into(),
        Setting::SetProperties(update) => {
            let mut args = Vec::new();
            if let Some(l) = &update.logging {
                imports.insert("TableAnalyticsLogging");
                args.push(format!(
                    "    analytics_logging=TableAnalyticsLogging(\n        version={}, read={}, write={}, delete={},\n        retention_policy={},\n    ),\n",
                    quoted(&l.version),
                    py_bool(l.read),
                    py_bool(l.write),
                    py_bool(l.delete),
                    py_retention(&l.retention_policy, imports)
                ));
            }
            for (name, metrics) in [
                ("hour_metrics", &update.hour_metrics),
                ("minute_metrics", &update.minute_metrics),
            ] {
                if let Some(m) = metrics {
                    imports.insert("TableMetrics");
                    let include = m
                        .include_apis
                        .map(|i| format!(" include_apis={},", py_bool(i)))
                        .unwrap_or_default();
                    args.push(format!(
                        "    {name}=TableMetrics(\n        version={}, enabled={},{include}\n        retention_policy={},\n    ),\n",
                        quoted(&m.version),
                        py_bool(m.enabled),
                        py_retention(&m.retention_policy, imports)
                    ));
                }
            }
            if let Some(rules) = &update.cors {
                if rules.is_empty() {
                    args.push("    cors=[],\n".into());
                } else {
                    imports.insert("TableCorsRule");
                    let rules: String = rules.iter().map(py_rule).collect();
                    args.push(format!("    cors=[\n{rules}    ],\n"));
                }
            }
            format!("service.set_service_properties(\n{})\n", args.concat())
        }
        Setting::GetAcl(table) => format!(
            "table = service.get_table_client({})\n\
             for id, policy in table.get_table_access_policy().items():\n    print(id, policy)\n",
            quoted(table)
        ),
        Setting::SetAcl(table, list) => {
            let items: String = list
                .iter()
                .map(|i| {
                    let policy = match &i.access_policy {
                        None => "None".to_string(),
                        Some(p) => {
                            imports.insert("TableAccessPolicy");
                            let mut args = Vec::new();
                            if let Some(s) = p.start {
                                args.push(format!("start={}", py_time(s, imports)));
                            }
                            if let Some(e) = p.expiry {
                                args.push(format!("expiry={}", py_time(e, imports)));
                            }
                            if let Some(perm) = &p.permission {
                                args.push(format!("permission={}", quoted(perm)));
                            }
                            format!("TableAccessPolicy({})", args.join(", "))
                        }
                    };
                    format!("        {}: {policy},\n", quoted(&i.id))
                })
                .collect();
            let identifiers = if items.is_empty() {
                "{}".to_string()
            } else {
                format!("{{\n{items}    }}")
            };
            format!(
                "table = service.get_table_client({})\n\
                 table.set_table_access_policy(\n    signed_identifiers={identifiers},\n)\n",
                quoted(table)
            )
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn py_retention(p: &RetentionPolicy, imports: &mut BTreeSet<&'static str>) -> String {
    imports.insert("TableRetentionPolicy");
    match p.days {
        Some(days) => format!(
            "TableRetentionPolicy(enabled={}, days={days})",
            py_bool(p.enabled)
        ),
        None => format!("TableRetentionPolicy(enabled={})", py_bool(p.enabled)),
    }
}

fn py_rule(rule: &CorsRule) -> String {
    format!(
        "        TableCorsRule(\n            [{}],\n            [{}],\n            allowed_headers=[{}],\n            exposed_headers=[{}],\n            max_age_in_seconds={},\n        ),\n",
        quoted_list(&rule.allowed_origins),
        quoted_list(&rule.allowed_methods),
        quoted_list(&rule.allowed_headers),
        quoted_list(&rule.exposed_headers),
        rule.max_age_in_seconds
    )
}

/// An aware `datetime` (a stored policy's times are whole seconds in practice; the SDK
/// writes them to the second).
fn py_time(t: DateTime, imports: &mut BTreeSet<&'static str>) -> String {
    imports.insert("datetime");
    let i = super::literal::Instant::of(t);
    format!(
        "datetime({}, {}, {}, {}, {}, {}, tzinfo=timezone.utc)",
        i.year, i.month, i.day, i.hour, i.minute, i.second
    )
}

// ---- C# (Azure.Data.Tables) ----

/// The C# body, after `service` is made (its types are in `Azure.Data.Tables.Models`).
pub(crate) fn csharp(setting: &Setting) -> String {
    match setting {
        Setting::GetProperties => {
            "TableServiceProperties properties = service.GetProperties().Value;\n\
             Console.WriteLine($\"{properties.Cors.Count} CORS rules\");\n"
                .into()
        }
        Setting::SetProperties(update) => {
            let mut out = String::from("var properties = new TableServiceProperties();\n");
            if let Some(l) = &update.logging {
                out.push_str(&format!(
                    "properties.Logging = new TableAnalyticsLoggingSettings({}, {}, {}, {}, {});\n",
                    quoted(&l.version),
                    l.delete,
                    l.read,
                    l.write,
                    cs_retention(&l.retention_policy)
                ));
            }
            for (name, metrics) in [
                ("HourMetrics", &update.hour_metrics),
                ("MinuteMetrics", &update.minute_metrics),
            ] {
                if let Some(m) = metrics {
                    let include = m
                        .include_apis
                        .map(|i| format!(", IncludeApis = {i}"))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "properties.{name} = new TableMetrics({}) {{ Version = {}{include}, RetentionPolicy = {} }};\n",
                        m.enabled,
                        quoted(&m.version),
                        cs_retention(&m.retention_policy)
                    ));
                }
            }
            for rule in update.cors.iter().flatten() {
                out.push_str(&format!(
                    "properties.Cors.Add(new TableCorsRule({}, {}, {}, {}, {}));\n",
                    quoted(&rule.allowed_origins.join(",")),
                    quoted(&rule.allowed_methods.join(",")),
                    quoted(&rule.allowed_headers.join(",")),
                    quoted(&rule.exposed_headers.join(",")),
                    rule.max_age_in_seconds
                ));
            }
            out.push_str("service.SetProperties(properties);\n");
            out
        }
        Setting::GetAcl(table) => format!(
            "var table = service.GetTableClient({});\n\
             foreach (TableSignedIdentifier identifier in table.GetAccessPolicies().Value)\n    \
             Console.WriteLine($\"{{identifier.Id}}: {{identifier.AccessPolicy?.Permission}}\");\n",
            quoted(table)
        ),
        Setting::SetAcl(table, list) => {
            let items: String = list
                .iter()
                .map(|i| {
                    let policy = match &i.access_policy {
                        None => "null".to_string(),
                        Some(p) => format!(
                            "new TableAccessPolicy({}, {}, {})",
                            cs_time(p.start),
                            cs_time(p.expiry),
                            p.permission.as_deref().map_or("null".into(), quoted)
                        ),
                    };
                    format!(
                        "    new TableSignedIdentifier({}, {policy}),\n",
                        quoted(&i.id)
                    )
                })
                .collect();
            format!(
                "var table = service.GetTableClient({});\n\
                 table.SetAccessPolicy(new List<TableSignedIdentifier>\n{{\n{items}}});\n",
                quoted(table)
            )
        }
    }
}

fn cs_retention(p: &RetentionPolicy) -> String {
    match p.days {
        Some(days) => format!(
            "new TableRetentionPolicy({}) {{ Days = {days} }}",
            p.enabled
        ),
        None => format!("new TableRetentionPolicy({})", p.enabled),
    }
}

fn cs_time(t: Option<DateTime>) -> String {
    t.map_or("null".into(), |t| {
        format!("DateTimeOffset.Parse({})", quoted(&t.to_string()))
    })
}

// ---- Java (com.azure:azure-data-tables) ----

pub(crate) fn java(setting: &Setting) -> String {
    match setting {
        Setting::GetProperties => "TableServiceProperties properties = service.getProperties();\n\
             System.out.println(properties.getCorsRules().size() + \" CORS rules\");\n"
            .into(),
        Setting::SetProperties(update) => {
            let mut out = String::from("TableServiceProperties properties = new TableServiceProperties()");
            if let Some(l) = &update.logging {
                out.push_str(&format!(
                    "\n    .setLogging(new TableServiceLogging()\n        .setAnalyticsVersion({})\n        .setReadLogged({})\n        .setWriteLogged({})\n        .setDeleteLogged({})\n        .setRetentionPolicy({}))",
                    quoted(&l.version),
                    l.read,
                    l.write,
                    l.delete,
                    java_retention(&l.retention_policy)
                ));
            }
            for (name, metrics) in [
                ("setHourMetrics", &update.hour_metrics),
                ("setMinuteMetrics", &update.minute_metrics),
            ] {
                if let Some(m) = metrics {
                    let include = m
                        .include_apis
                        .map(|i| format!("\n        .setIncludeApis({i})"))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "\n    .{name}(new TableServiceMetrics()\n        .setVersion({})\n        .setEnabled({}){include}\n        .setRetentionPolicy({}))",
                        quoted(&m.version),
                        m.enabled,
                        java_retention(&m.retention_policy)
                    ));
                }
            }
            if let Some(rules) = &update.cors {
                let rules: Vec<String> = rules
                    .iter()
                    .map(|rule| {
                        format!(
                            "        new TableServiceCorsRule()\n            .setAllowedOrigins({})\n            .setAllowedMethods({})\n            .setAllowedHeaders({})\n            .setExposedHeaders({})\n            .setMaxAgeInSeconds({})",
                            quoted(&rule.allowed_origins.join(",")),
                            quoted(&rule.allowed_methods.join(",")),
                            quoted(&rule.allowed_headers.join(",")),
                            quoted(&rule.exposed_headers.join(",")),
                            rule.max_age_in_seconds
                        )
                    })
                    .collect();
                if rules.is_empty() {
                    out.push_str("\n    .setCorsRules(List.of())");
                } else {
                    out.push_str(&format!("\n    .setCorsRules(List.of(\n{}))", rules.join(",\n")));
                }
            }
            out.push_str(";\nservice.setProperties(properties);\n");
            out
        }
        Setting::GetAcl(table) => format!(
            "TableClient table = service.getTableClient({});\n\
             for (TableSignedIdentifier identifier : table.getAccessPolicies().getIdentifiers())\n    \
             System.out.println(identifier.getId());\n",
            quoted(table)
        ),
        Setting::SetAcl(table, list) => {
            let items: Vec<String> = list
                .iter()
                .map(|i| {
                    let mut item = format!("    new TableSignedIdentifier({})", quoted(&i.id));
                    if let Some(p) = &i.access_policy {
                        let mut policy = String::from("new TableAccessPolicy()");
                        if let Some(s) = p.start {
                            policy.push_str(&format!(".setStartsOn({})", java_time(s)));
                        }
                        if let Some(e) = p.expiry {
                            policy.push_str(&format!(".setExpiresOn({})", java_time(e)));
                        }
                        if let Some(perm) = &p.permission {
                            policy.push_str(&format!(".setPermissions({})", quoted(perm)));
                        }
                        item.push_str(&format!("\n        .setAccessPolicy({policy})"));
                    }
                    item
                })
                .collect();
            let list = if items.is_empty() {
                "List.of()".to_string()
            } else {
                format!("List.of(\n{})", items.join(",\n"))
            };
            format!(
                "TableClient table = service.getTableClient({});\ntable.setAccessPolicies({list});\n",
                quoted(table)
            )
        }
    }
}

fn java_retention(p: &RetentionPolicy) -> String {
    let days = p
        .days
        .map(|d| format!(".setDaysToRetain({d})"))
        .unwrap_or_default();
    format!(
        "new TableServiceRetentionPolicy().setEnabled({}){days}",
        p.enabled
    )
}

fn java_time(t: DateTime) -> String {
    format!("OffsetDateTime.parse({})", quoted(&t.to_string()))
}
