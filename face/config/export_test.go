package config

// Origin returns where the setting called name came from.
func (c *Config) Origin(name string) Source { return c.origins[name] }
