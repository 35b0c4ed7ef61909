package genlog

// words is the fixed word list contents, aliases and names are drawn
// from: picking words is fast, and the text still tokenizes to many terms.
var words = [...]string{
	"deploy", "canary", "rollback", "staging", "production", "cluster",
	"upgrade", "drain", "node", "pager", "oncall", "rota", "incident",
	"postgres", "replica", "migration", "schema", "index", "vacuum", "backup",
	"restore", "snapshot", "bucket", "queue", "worker", "cron", "retry",
	"timeout", "latency", "budget", "alert", "dashboard", "metric", "trace",
	"span", "log", "shard", "partition", "leader", "follower", "quorum",
	"raft", "lease", "lock", "mutex", "channel", "socket", "proxy", "gateway",
	"ingress", "certificate", "token", "secret", "vault", "policy", "role",
	"grant", "audit", "review", "merge", "branch", "commit", "release", "tag",
	"build", "artifact", "cache", "registry", "image", "container", "pod",
	"sidecar", "volume", "mount", "config", "flag", "feature", "toggle",
	"experiment", "cohort", "rollout", "freeze", "window", "maintenance",
	"patch", "kernel", "driver", "firmware", "disk", "memory", "cpu",
	"thread", "pool", "heap", "stack", "profile", "benchmark", "regression",
	"baseline", "invoice", "customer", "tenant", "region", "zone", "failover",
	"replication", "consistency", "eventual", "strong", "linear", "timestamp",
	"clock", "drift", "skew", "nonce", "hash", "digest", "signature",
	"checksum", "compression", "gzip", "zstd", "codec", "parser", "lexer",
	"grammar", "ast", "compiler", "linker", "loader", "module", "package",
	"crate", "dependency", "vendor", "license", "notice", "changelog",
	"roadmap", "milestone", "sprint", "standup", "retro", "ticket", "backlog",
	"estimate", "velocity", "owner", "reviewer", "approver", "manager",
	"meeting", "agenda", "minutes", "decision", "question", "answer",
	"summary", "archive", "topic", "note", "reminder", "deadline", "friday",
	"monday", "weekend", "holiday", "travel", "flight", "hotel", "visa",
	"passport", "coffee", "lunch", "dinner", "recipe", "garden", "bicycle",
	"piano", "guitar", "novel", "chapter", "poem", "essay", "draft",
	"outline", "thesis", "lecture", "seminar", "exam", "grade", "tutor",
	"mentor", "alice", "bob", "carol", "dave", "erin", "frank", "grace",
	"heidi", "ivan", "judy", "mallory", "oscar", "peggy", "trent", "victor",
	"walter",
}

// unicodeWords start the names with non-ASCII letters, CJK or emoji.
var unicodeWords = [...]string{"Straße café", "日本語メモ", "螃蟹", "crab 🦀", "naïve Ærø", "Привет", "résumé", "東京 会議"}
