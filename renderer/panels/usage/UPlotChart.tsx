/**
 * A uPlot chart that follows its box's width. uPlot (1.6) draws time series on a canvas, is small (~50 KB) and
 * fast with thousands of points, and needs no framework adapter, which is why the usage charts use it.
 */
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export function UPlotChart({ options, data, height = 220, testId }: {
  options: Omit<uPlot.Options, 'width' | 'height'>
  data: uPlot.AlignedData
  height?: number
  testId?: string
}) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current!
    const chart = new uPlot({ ...options, width: el.clientWidth, height }, data, el)
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [options, data, height])
  // The canvas is drawn for sighted users; each chart has a table of the same figures beside it.
  return <div ref={box} className="usage-chart" aria-hidden="true" data-testid={testId} />
}

/** Colours of the series, in stack order; the summed rest is grey. */
export const PALETTE = ['#2b6cb0', '#dd6b20', '#2f855a', '#b83280', '#6b46c1', '#c05621', '#2c7a7b', '#d69e2e', '#805ad5', '#e53e3e']
export const OTHER_COLOUR = '#a0aec0'

/** A CSS variable's colour, for canvas drawing (which cannot read variables). */
export const cssColour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#667085'

/** uPlot's state of a drawn axis (not in its types): the labels drawn, its width, its font. */
interface DrawnAxis { _values?: string[] | null; _size?: number; font?: unknown; ticks?: { size?: number }; gap?: number }

/**
 * An axis `size` that fits its widest label: measured in the axis's own font, plus the tick and the gap, so a
 * label such as `100 ms` is never cut at the chart's edge.
 */
export function fitLabels(u: uPlot, values: string[] | null, axisIdx: number): number {
  const axis = u.axes[axisIdx] as DrawnAxis
  const font = Array.isArray(axis.font) ? String(axis.font[0]) : String(axis.font ?? '')
  u.ctx.save()
  u.ctx.font = font
  const widest = Math.max(0, ...(values ?? []).map((v) => u.ctx.measureText(v).width)) / (window.devicePixelRatio || 1)
  u.ctx.restore()
  return Math.ceil(widest) + (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 4
}

/**
 * Writes the y axis as drawn onto the chart's box (`data-y-labels`, `data-y-size`, `data-y-font`): the canvas shows
 * it to the eye, these let a test measure that no label is cut.
 */
export function exposeYAxis(u: uPlot): void {
  const axis = u.axes[1] as DrawnAxis
  const box = u.root.parentElement
  if (!box) return
  box.dataset.yLabels = JSON.stringify((axis._values ?? []).filter((v) => v !== ''))
  box.dataset.ySize = String(axis._size ?? 0)
  box.dataset.yFont = Array.isArray(axis.font) ? String(axis.font[0]) : ''
}
