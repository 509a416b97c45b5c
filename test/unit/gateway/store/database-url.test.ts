import { describe, expect, it } from 'vitest'
import { databaseUrlSecrets, redactDatabaseUrl, withoutSecrets, withPassword } from '../../../../electron/gateway/store/database-url.js'

describe('database URL: printed without its passwords', () => {
  it.each([
    ['no password', 'postgres://gate@db:5432/gatehouse', 'postgres://gate@db:5432/gatehouse'],
    ['a userinfo password', 'postgres://gate:hunter2@db:5432/gatehouse', 'postgres://gate:***@db:5432/gatehouse'],
    ['a percent-encoded userinfo password', 'postgres://gate:p%40ss%2Fw0rd@db/gatehouse', 'postgres://gate:***@db/gatehouse'],
    ['?password=', 'postgres://u@127.0.0.1:5432/db?password=hunter2', 'postgres://u@127.0.0.1:5432/db?password=***'],
    ['?PASSWORD= (upper case)', 'postgres://u@db/db?PASSWORD=hunter2', 'postgres://u@db/db?PASSWORD=***'],
    ['?PassWord= (mixed case) among other parameters', 'postgres://u@db/db?sslmode=require&PassWord=hunter2&application_name=x', 'postgres://u@db/db?sslmode=require&PassWord=***&application_name=x'],
    ['?sslpassword=', 'postgres://u@db/db?sslmode=verify-full&sslpassword=keypass9', 'postgres://u@db/db?sslmode=verify-full&sslpassword=***'],
    ['?SSLPassword= (mixed case)', 'postgres://u@db/db?SSLPassword=keypass9', 'postgres://u@db/db?SSLPassword=***'],
    ['a percent-encoded parameter name', 'postgres://u@db/db?pass%77ord=hunter2', 'postgres://u@db/db?password=***'],
    ['an encoded password in the query', 'postgres://u@db/db?password=hun%20ter%262', 'postgres://u@db/db?password=***'],
    ['a password spelled with + for a space', 'postgres://u@db/db?password=hun+ter2', 'postgres://u@db/db?password=***'],
    ['the password twice', 'postgres://u@db/db?password=one1&password=two2', 'postgres://u@db/db?password=***&password=***'],
    ['the userinfo and the query both', 'postgresql://u:first1@db/db?password=second2', 'postgresql://u:***@db/db?password=***'],
    ['an empty password parameter', 'postgres://u@db/db?password=', 'postgres://u@db/db?password=***'],
  ])('%s', (_name, url, printed) => {
    expect(redactDatabaseUrl(url)).toBe(printed)
  })

  it('an unparsable URL is not quoted at all', () => {
    expect(redactDatabaseUrl('postgres://u:hunter2@[db/x')).toBe('the database URL (unparsable)')
  })
})

describe('database URL: its secrets, as written and decoded', () => {
  it.each([
    ['postgres://gate@db/gatehouse', []],
    ['postgres://gate:hunter2@db/gatehouse', ['hunter2']],
    ['postgres://gate:p%40ss%2Fw0rd@db/gatehouse', ['p%40ss%2Fw0rd', 'p@ss/w0rd']],
    ['postgres://u@db/db?password=hunter2', ['hunter2']],
    ['postgres://u@db/db?PASSWORD=hun+ter%262', ['hun+ter%262', 'hun ter&2']],
    ['postgres://u@db/db?Sslpassword=keypass9&sslmode=require', ['keypass9']],
    ['postgres://u:first1@db/db?password=second22', ['second22', 'first1']],
    ['not a url', []],
  ])('%s', (url, secrets) => {
    expect(databaseUrlSecrets(url)).toEqual(secrets)
  })

  it('removes every one of them from a message, the longest first', () => {
    const url = 'postgres://u:p%40ss@db/db?password=p%40ss-longer'
    const message = 'connect failed for postgres://u:p%40ss@db/db?password=p%40ss-longer (password p@ss-longer, p@ss)'
    expect(withoutSecrets(message, databaseUrlSecrets(url))).toBe('connect failed for postgres://u:[redacted]@db/db?password=[redacted] (password [redacted], [redacted])')
  })

  it('a password from a file goes into the userinfo, encoded, and comes back out decoded', () => {
    const url = withPassword('postgres://gate@db:5432/gatehouse?sslmode=require', 'p@ss w%rd:/?#')
    expect(new URL(url).username).toBe('gate')
    expect(decodeURIComponent(new URL(url).password)).toBe('p@ss w%rd:/?#')
    expect(databaseUrlSecrets(url)).toContain('p@ss w%rd:/?#')
    expect(redactDatabaseUrl(url)).toBe('postgres://gate:***@db:5432/gatehouse?sslmode=require')
  })
})
