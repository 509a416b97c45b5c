import { memo, useRef, useState, type ComponentProps } from 'react'
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { useT } from '../../i18n'
import { LinkedImage } from './LinkedImage'
import { isInlineImage, isRemoteImage, markdownUrl } from './markdown-urls'
import { STRINGS } from './strings'

/** A fenced code block (`<pre><code>`) with a copy button. */
function CodeBlock({ node: _node, children, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const t = useT(STRINGS)
  const ref = useRef<HTMLPreElement>(null)
  const [copied, setCopied] = useState(false)
  const copy = () => {
    void navigator.clipboard.writeText(ref.current?.textContent ?? '').then(() => {
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    })
  }
  return (
    <div className="chat-code">
      <button type="button" className="chat-copy" onClick={copy} data-testid="chat-copy-code">
        {copied ? t('copied') : t('copy')}
      </button>
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  )
}

/** A link markdownUrl kept; one it dropped (javascript:, file:, a custom scheme …) is plain text. */
function Link({ node: _node, href, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  if (!href) return <span>{children}</span>
  // Footnotes point into the answer itself.
  if (href.startsWith('#')) return <a {...rest} href={href}>{children}</a>
  // Links open outside the app window, never in it, and tell the site nothing about the app.
  return <a {...rest} href={href} target="_blank" rel="noreferrer noopener">{children}</a>
}

/** data: images show as they are; http(s) ones wait for a click; any other source (dropped by markdownUrl) shows its alt text only. */
function Image({ src, alt }: ComponentProps<'img'> & ExtraProps) {
  if (typeof src === 'string' && isInlineImage(src)) return <img src={src} alt={alt ?? ''} />
  if (typeof src === 'string' && isRemoteImage(src)) return <LinkedImage key={src} src={src} alt={alt} />
  return alt ? <span>{alt}</span> : null
}

const COMPONENTS: Components = { pre: CodeBlock, a: Link, img: Image }
const PLUGINS = [remarkGfm]

/**
 * Markdown with GitHub extensions (tables, task lists, strikethrough); raw HTML stays escaped. A model's markdown
 * loads nothing by itself: links are http(s) or mailto only, and remote images load on a click (LinkedImage).
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown">
      <ReactMarkdown remarkPlugins={PLUGINS} components={COMPONENTS} urlTransform={markdownUrl}>
        {text}
      </ReactMarkdown>
    </div>
  )
})
