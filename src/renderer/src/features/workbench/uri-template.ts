/**
 * Fills in an RFC 6570 URI template for a resource read: simple `{x}`, reserved `{+x}`,
 * path `{/x}` and query `{?x,y}` / `{&x}` expressions (explode `*` is read as a plain
 * value). Empty values are left out of query expressions.
 */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#/?&]?)([^}]+)\}/g, (_, operator: string, list: string) => {
    const names = list.split(',').map((name) => name.trim().replace(/\*$/, ''))
    const given = names.filter((name) => (values[name] ?? '') !== '')
    const encode = (name: string): string =>
      operator === '+' || operator === '#'
        ? encodeURI(values[name]!)
        : encodeURIComponent(values[name]!)
    switch (operator) {
      case '?':
      case '&':
        return given.length === 0
          ? ''
          : operator + given.map((name) => `${name}=${encode(name)}`).join('&')
      case '/':
        return given.map((name) => `/${encode(name)}`).join('')
      case '#':
        return given.length === 0 ? '' : `#${given.map(encode).join(',')}`
      default:
        return given.map(encode).join(',')
    }
  })
}
