import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../../electron/gateway/config/load-config.js'
import { otlpSettings, tracesUrl } from '../../../../electron/gateway/telemetry/otlp-settings.js'
import { tempDataDir } from '../../../helpers/gateway.js'

describe('when tracing is on, and where spans go', () => {
  it('is off with neither the config file nor an OTEL_* endpoint', () => {
    expect(otlpSettings(undefined, {})).toBeUndefined()
    expect(otlpSettings({}, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined()
  })

  it('takes the config file\'s endpoint as a base URL, with its headers and service name', () => {
    expect(otlpSettings({ otlp: { endpoint: 'https://otel.example.com:4318', headers: { authorization: 'Bearer s3cret' }, serviceName: 'gw-eu' } }, {})).toEqual({
      url: 'https://otel.example.com:4318/v1/traces',
      headers: { authorization: 'Bearer s3cret' },
      serviceName: 'gw-eu',
      shown: 'https://otel.example.com:4318/v1/traces',
    })
  })

  it('prefers the config file to the variables', () => {
    expect(otlpSettings({ otlp: { endpoint: 'http://127.0.0.1:4318/' } }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318', OTEL_SERVICE_NAME: 'from-env' })).toEqual({
      url: 'http://127.0.0.1:4318/v1/traces',
      serviceName: 'from-env',
      shown: 'http://127.0.0.1:4318/v1/traces',
    })
  })

  it('reads OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as a full URL before OTEL_EXPORTER_OTLP_ENDPOINT as a base', () => {
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom/traces', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318' })?.url).toBe('http://collector:4318/custom/traces')
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ url: 'http://collector:4318/v1/traces', serviceName: 'gatehouse', shown: 'http://collector:4318/v1/traces' })
  })

  it('is off whenever OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, the config file\'s endpoint too', () => {
    const config = { otlp: { endpoint: 'http://127.0.0.1:4318' } }
    expect(otlpSettings(config, { OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined()
    expect(otlpSettings(config, { OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined()
    expect(otlpSettings(config, { OTEL_SDK_DISABLED: 'false' })?.url).toBe('http://127.0.0.1:4318/v1/traces')
  })

  it('shows the URL without its user, password or query', () => {
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:pa55@otel.example.com/v1/traces?token=abc' })?.shown).toBe('https://otel.example.com/v1/traces')
  })

  it('refuses an endpoint variable that is not an http(s) URL, naming it', () => {
    expect(() => otlpSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL')
    expect(() => otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not a URL')
  })

  it('appends /v1/traces once', () => {
    expect(tracesUrl('http://c:4318')).toBe('http://c:4318/v1/traces')
    expect(tracesUrl('http://c:4318/otlp/')).toBe('http://c:4318/otlp/v1/traces')
    expect(tracesUrl('http://c:4318/v1/traces')).toBe('http://c:4318/v1/traces')
  })

  it('checks the config file\'s telemetry block: an endpoint is required and must be http(s)', () => {
    const dir = tempDataDir()
    try {
      const path = join(dir.dir, 'config.json')
      writeFileSync(path, JSON.stringify({ telemetry: { otlp: { headers: { a: 'b' } } } }))
      expect(() => loadConfig(path)).toThrow('invalid config: telemetry.otlp.endpoint: missing telemetry.otlp.endpoint field')
      writeFileSync(path, JSON.stringify({ telemetry: { otlp: { endpoint: 'grpc://c:4317' } } }))
      expect(() => loadConfig(path)).toThrow('invalid config: telemetry.otlp.endpoint: must match pattern "^https?://"')
      writeFileSync(path, JSON.stringify({ telemetry: { otlp: { endpoint: 'http://c:4318', protocol: 'grpc' } } }))
      expect(() => loadConfig(path)).toThrow('invalid config: telemetry.otlp: must NOT have additional properties')
      writeFileSync(path, JSON.stringify({ telemetry: { otlp: { endpoint: 'http://c:4318', headers: { 'x-key': 'v' }, serviceName: 'gw' } } }))
      expect(loadConfig(path).telemetry).toEqual({ otlp: { endpoint: 'http://c:4318', headers: { 'x-key': 'v' }, serviceName: 'gw' } })
    } finally {
      dir.remove()
    }
  })
})
