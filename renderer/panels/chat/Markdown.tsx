import { memo, useRef, useState, type ComponentProps } from 'react'
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { useT } from '../../i18n'
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

const COMPONENTS: Components = {
  pre: CodeBlock,
  // Links open outside the app window, never in it.
  a: ({ node: _node, ...rest }) => <a {...rest} target="_blank" rel="noreferrer" />,
}
const PLUGINS = [remarkGfm]

/** Markdown with GitHub extensions (tables, task lists, strikethrough); raw HTML stays escaped. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown">
      <ReactMarkdown remarkPlugins={PLUGINS} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  )
})
